import type { ReactNode } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { type SeoContent, seoLimits } from '#shared/seo.ts'
import { CopyButton } from '#web/components/ui/copy-button.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { featuresAsText, keywordsAsText } from '../seo-text.ts'

/** Title, meta description, features and keywords, each with its copy button and count. */
export function SeoResult(props: { content: SeoContent }) {
  const { t, formatNumber } = useI18n()
  const { content } = props
  const count = (text: string, limit: number) =>
    t('studio.seo.count', { count: formatNumber(text.length), limit: formatNumber(limit) })
  const items = (list: string[]) => t('studio.seo.countItems', { count: formatNumber(list.length) })
  const blocks: { title: TKey; meta: string; copyText: string; testId: string; body: ReactNode }[] = [
    {
      title: 'studio.seo.title',
      meta: count(content.title, seoLimits.titleMax),
      copyText: content.title,
      testId: 'seo-title',
      body: <p className="font-semibold text-slate-900">{content.title}</p>,
    },
    {
      title: 'studio.seo.metaDescription',
      meta: count(content.description, seoLimits.descriptionMax),
      copyText: content.description,
      testId: 'seo-description',
      body: <p className="text-slate-800">{content.description}</p>,
    },
    {
      title: 'studio.seo.features',
      meta: items(content.features),
      copyText: featuresAsText(content.features),
      testId: 'seo-features',
      body: (
        <ul className="list-disc space-y-1 pl-5 text-slate-800">
          {content.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      ),
    },
    {
      title: 'studio.seo.keywords',
      meta: items(content.keywords),
      copyText: keywordsAsText(content.keywords),
      testId: 'seo-keywords',
      body: (
        <ul className="flex flex-wrap gap-1.5">
          {content.keywords.map((keyword) => (
            <li key={keyword} className="rounded-full bg-slate-100 px-2.5 py-1 text-xs text-slate-800">
              {keyword}
            </li>
          ))}
        </ul>
      ),
    },
  ]
  return (
    <div className="space-y-4" data-testid="seo-result">
      {blocks.map(({ title, body, ...block }) => (
        <SeoBlock key={block.testId} title={t(title)} {...block}>
          {body}
        </SeoBlock>
      ))}
    </div>
  )
}

function SeoBlock(props: {
  title: string
  meta: string
  copyText: string
  testId: string
  children: ReactNode
}) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4" data-testid={props.testId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 className="text-sm font-semibold text-slate-900">{props.title}</h3>
          <p className="text-xs text-slate-600" data-testid={`${props.testId}-count`}>
            {props.meta}
          </p>
        </div>
        <CopyButton text={props.copyText} what={props.title} testId={`${props.testId}-copy`} />
      </div>
      <div className="mt-3 text-sm">{props.children}</div>
    </section>
  )
}
