import { getPlan } from '#shared/plans.ts'
import { Container } from '#web/components/ui/container.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { ContactPrompt, ProseNote, ProseSection } from '#web/components/ui/prose.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

const laterSections = ['ai', 'plans', 'byok', 'service'] as const

export function TermsPage() {
  const { t } = useI18n()
  return (
    <>
      <PageHeader title={t('pages.terms.title')} subtitle={t('pages.terms.subtitle')} />
      <Container className="py-12 sm:py-16">
        <div className="mx-auto max-w-3xl space-y-10">
          <ProseNote>
            <p>{t('pages.terms.notice')}</p>
          </ProseNote>
          <ProseSection id="account" title={t('pages.terms.account.title')}>
            <p>{t('pages.terms.account.body', { plan: getPlan('growth').name })}</p>
          </ProseSection>
          <ProseSection id="content" title={t('pages.terms.content.title')}>
            <p>{t('pages.terms.content.rights')}</p>
            <p>{t('pages.terms.content.rules')}</p>
          </ProseSection>
          {laterSections.map((section) => (
            <ProseSection key={section} id={section} title={t(`pages.terms.${section}.title`)}>
              <p>{t(`pages.terms.${section}.body`)}</p>
            </ProseSection>
          ))}
          <ContactPrompt text={t('pages.terms.questions.body')} linkText={t('pages.terms.questions.link')} />
        </div>
      </Container>
    </>
  )
}
