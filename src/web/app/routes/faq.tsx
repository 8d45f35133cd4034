import type { ReactNode } from 'react'
import { plans } from '#shared/plans.ts'
import { ChevronDownIcon } from '#web/components/ui/icons.tsx'
import { PageIntro } from '#web/components/ui/page-header.tsx'
import { ContactPrompt } from '#web/components/ui/prose.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { faqGroups as groups, type FaqItemId as ItemId } from '../faq-items.ts'

function FaqItem(props: { question: string; children: ReactNode }) {
  return (
    <details className="group border-b border-slate-200 last:border-b-0">
      <summary className="flex cursor-pointer list-none items-start justify-between gap-4 px-5 py-4 font-semibold text-slate-900 hover:bg-slate-50 focus-visible:-outline-offset-2 sm:px-6 [&::-webkit-details-marker]:hidden">
        <span>{props.question}</span>
        <ChevronDownIcon className="mt-0.5 size-5 shrink-0 text-brand-700 transition-transform group-open:rotate-180" />
      </summary>
      <div className="space-y-3 px-5 pb-5 leading-7 text-slate-700 sm:px-6">{props.children}</div>
    </details>
  )
}

export function FaqPage() {
  const { t } = useI18n()

  const answer = (id: ItemId): ReactNode => {
    if (id !== 'quota') return <p>{t(`pages.faq.items.${id}.answer`)}</p>
    return (
      <>
        <p>{t('pages.faq.items.quota.answer')}</p>
        <ul className="list-disc space-y-1 pl-5 marker:text-brand-600">
          {plans.map((plan) => (
            <li key={plan.id}>
              {t('pages.faq.items.quota.plan', {
                name: plan.name,
                images: plan.imageQuota,
                videos: plan.videoQuota,
              })}
            </li>
          ))}
        </ul>
        <p>{t('pages.faq.items.quota.reset')}</p>
      </>
    )
  }

  return (
    <PageIntro keys="pages.faq">
      <div className="mx-auto max-w-3xl space-y-12">
        {groups.map((group) => (
          <section key={group.id} aria-labelledby={`faq-${group.id}-title`}>
            <h2
              id={`faq-${group.id}-title`}
              className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl"
            >
              {t(`pages.faq.groups.${group.id}`)}
            </h2>
            <div className="mt-4 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
              {group.items.map((id) => (
                <FaqItem key={id} question={t(`pages.faq.items.${id}.question`)}>
                  {answer(id)}
                </FaqItem>
              ))}
            </div>
          </section>
        ))}
        <section aria-labelledby="faq-more-title">
          <h2 id="faq-more-title" className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl">
            {t('pages.faq.more.title')}
          </h2>
          <div className="mt-4">
            <ContactPrompt text={t('pages.faq.more.body')} linkText={t('pages.faq.more.link')} />
          </div>
        </section>
      </div>
    </PageIntro>
  )
}
