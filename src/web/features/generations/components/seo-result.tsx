import type { ReactNode } from 'react'
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
  return (
    <div className="space-y-4" data-testid="seo-result">
      <SeoBlock
        title={t('studio.seo.title')}
        meta={count(content.title, seoLimits.titleMax)}
        copyText={content.title}
        testId="seo-title"
      >
        <p className="font-semibold text-slate-900">{content.title}</p>
      </SeoBlock>
      <SeoBlock
        title={t('studio.seo.metaDescription')}
        meta={count(content.description, seoLimits.descriptionMax)}
        copyText={content.description}
        testId="seo-description"
      >
        <p className="text-slate-800">{content.description}</p>
      </SeoBlock>
      <SeoBlock
        title={t('studio.seo.features')}
        meta={t('studio.seo.countItems', { count: formatNumber(content.features.length) })}
        copyText={featuresAsText(content.features)}
        testId="seo-features"
      >
        <ul className="list-disc space-y-1 pl-5 text-slate-800">
          {content.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      </SeoBlock>
      <SeoBlock
        title={t('studio.seo.keywords')}
        meta={t('studio.seo.countItems', { count: formatNumber(content.keywords.length) })}
        copyText={keywordsAsText(content.keywords)}
        testId="seo-keywords"
      >
        <ul className="flex flex-wrap gap-1.5">
          {content.keywords.map((keyword) => (
            <li key={keyword} className="rounded-full bg-slate-100 px-2.5 py-1 text-xs text-slate-800">
              {keyword}
            </li>
          ))}
        </ul>
      </SeoBlock>
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
