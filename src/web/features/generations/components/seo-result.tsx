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
  /** A block of one text (title, description): its length against the limit, copied as is. */
  const textBlock = (title: TKey, text: string, limit: number, testId: string, look: string) => ({
    title,
    meta: t('studio.seo.count', { count: formatNumber(text.length), limit: formatNumber(limit) }),
    copyText: text,
    testId,
    body: <p className={look}>{text}</p>,
  })
  /** A block of items (features, keywords): counted, copied as text, listed one by one. */
  const listBlock = (
    title: TKey,
    list: string[],
    copyText: string,
    testId: string,
    look: { list: string; item?: string },
  ) => ({
    title,
    meta: t('studio.seo.countItems', { count: formatNumber(list.length) }),
    copyText,
    testId,
    body: (
      <ul className={look.list}>
        {list.map((item) => (
          <li key={item} className={look.item}>
            {item}
          </li>
        ))}
      </ul>
    ),
  })
  const blocks = [
    textBlock(
      'studio.seo.title',
      content.title,
      seoLimits.titleMax,
      'seo-title',
      'font-semibold text-slate-900',
    ),
    textBlock(
      'studio.seo.metaDescription',
      content.description,
      seoLimits.descriptionMax,
      'seo-description',
      'text-slate-800',
    ),
    listBlock('studio.seo.features', content.features, featuresAsText(content.features), 'seo-features', {
      list: 'list-disc space-y-1 pl-5 text-slate-800',
    }),
    listBlock('studio.seo.keywords', content.keywords, keywordsAsText(content.keywords), 'seo-keywords', {
      list: 'flex flex-wrap gap-1.5',
      item: 'rounded-full bg-slate-100 px-2.5 py-1 text-xs text-slate-800',
    }),
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
