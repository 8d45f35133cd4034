import { type Locale, locales } from '#shared/i18n/locales.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import type { MessageVars } from '#shared/i18n/translate.ts'
import { plans } from '#shared/plans.ts'
import {
  escapeMarkup,
  localizedPath,
  ogImagePath,
  ogImageSize,
  originPlaceholder,
  type PublicPage,
  pageAlternates,
} from '#shared/public-pages.ts'
import { type FaqItemId, faqGroups } from './faq-items.ts'

type Translate = (key: TKey, vars?: MessageVars) => string

/** Open Graph's locale names. */
const ogLocale: Record<Locale, string> = { en: 'en_US', tr: 'tr_TR' }

/** JSON inside a script element: `<` escaped, so no text can close the element. */
function jsonLd(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value).replaceAll('<', '\\u003c')}</script>`
}

/**
 * The head of a public page in one language: title, description, canonical, the language
 * alternates (with x-default on English), Open Graph and Twitter card tags with the page's
 * preview image, and its structured data (the organisation everywhere, the plans as offers on
 * pricing, the questions on the FAQ).
 */
export function publicPageHead(page: PublicPage, locale: Locale, t: Translate): string {
  const origin = originPlaceholder
  const url = (path: string) => `${origin}${path}`
  const canonical = url(localizedPath(locale, page.path))
  const title = t(`seo.${page.key}.title`)
  const description = t(`seo.${page.key}.description`)
  const image = url(ogImagePath(locale, page.key))
  const imageAlt = t('seo.site.ogImageAlt', { headline: t(`seo.${page.key}.headline`) })
  const tags: string[] = [
    `<title>${escapeMarkup(title)}</title>`,
    `<meta name="description" content="${escapeMarkup(description)}" />`,
  ]
  if (!page.indexed) tags.push('<meta name="robots" content="noindex" />')
  tags.push(`<link rel="canonical" href="${canonical}" />`)
  for (const alternate of pageAlternates(page.path)) {
    tags.push(`<link rel="alternate" hreflang="${alternate.hreflang}" href="${url(alternate.path)}" />`)
  }
  const meta = (property: string, content: string) =>
    `<meta property="${property}" content="${escapeMarkup(content)}" />`
  const named = (name: string, content: string) =>
    `<meta name="${name}" content="${escapeMarkup(content)}" />`
  tags.push(
    meta('og:type', 'website'),
    meta('og:site_name', 'Vitrin'),
    meta('og:title', title),
    meta('og:description', description),
    meta('og:url', canonical),
    meta('og:locale', ogLocale[locale]),
    ...locales
      .filter((other) => other !== locale)
      .map((other) => meta('og:locale:alternate', ogLocale[other])),
    meta('og:image', image),
    meta('og:image:type', 'image/png'),
    meta('og:image:width', String(ogImageSize.width)),
    meta('og:image:height', String(ogImageSize.height)),
    meta('og:image:alt', imageAlt),
    named('twitter:card', 'summary_large_image'),
    named('twitter:title', title),
    named('twitter:description', description),
    named('twitter:image', image),
    named('twitter:image:alt', imageAlt),
  )
  tags.push(...structuredData(page, locale, t).map(jsonLd))
  return tags.join('\n    ')
}

/** An answer as plain text, as the FAQ page shows it (the quota answer lists each plan). */
function faqAnswer(id: FaqItemId, t: Translate): string {
  if (id !== 'quota') return t(`pages.faq.items.${id}.answer`)
  return [
    t('pages.faq.items.quota.answer'),
    ...plans.map((plan) =>
      t('pages.faq.items.quota.plan', { name: plan.name, images: plan.imageQuota, videos: plan.videoQuota }),
    ),
    t('pages.faq.items.quota.reset'),
  ].join(' ')
}

function structuredData(page: PublicPage, locale: Locale, t: Translate): unknown[] {
  const origin = originPlaceholder
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: 'Vitrin',
    url: `${origin}/`,
    logo: `${origin}/favicon.svg`,
    description: t('seo.site.organizationDescription'),
  }
  const data: unknown[] = [organization]
  if (page.key === 'pricing') {
    const pageUrl = `${origin}${localizedPath(locale, page.path)}`
    data.push({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Vitrin',
      description: t('seo.pricing.description'),
      brand: { '@type': 'Brand', name: 'Vitrin' },
      image: `${origin}${ogImagePath(locale, page.key)}`,
      offers: plans.map((plan) => ({
        '@type': 'Offer',
        name: t('seo.offers.planName', { plan: plan.name }),
        description: t('seo.offers.planDescription', {
          images: String(plan.imageQuota),
          videos: String(plan.videoQuota),
        }),
        price: plan.priceMonthlyUsd.toFixed(2),
        priceCurrency: 'USD',
        url: pageUrl,
        availability: 'https://schema.org/InStock',
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          price: plan.priceMonthlyUsd.toFixed(2),
          priceCurrency: 'USD',
          unitCode: 'MON',
          referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'MON' },
        },
      })),
    })
  }
  if (page.key === 'faq') {
    data.push({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      inLanguage: locale,
      mainEntity: faqGroups
        .flatMap((group) => group.items)
        .map((id) => ({
          '@type': 'Question',
          name: t(`pages.faq.items.${id}.question`),
          acceptedAnswer: { '@type': 'Answer', text: faqAnswer(id, t) },
        })),
    })
  }
  return data
}
