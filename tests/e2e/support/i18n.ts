import enCommon from '#shared/i18n/locales/en/common.json' with { type: 'json' }
import enContact from '#shared/i18n/locales/en/contact.json' with { type: 'json' }
import enErrors from '#shared/i18n/locales/en/errors.json' with { type: 'json' }
import enLanding from '#shared/i18n/locales/en/landing.json' with { type: 'json' }
import enPages from '#shared/i18n/locales/en/pages.json' with { type: 'json' }
import enPlans from '#shared/i18n/locales/en/plans.json' with { type: 'json' }
import enPricing from '#shared/i18n/locales/en/pricing.json' with { type: 'json' }
import trCommon from '#shared/i18n/locales/tr/common.json' with { type: 'json' }
import trContact from '#shared/i18n/locales/tr/contact.json' with { type: 'json' }
import trErrors from '#shared/i18n/locales/tr/errors.json' with { type: 'json' }
import trLanding from '#shared/i18n/locales/tr/landing.json' with { type: 'json' }
import trPages from '#shared/i18n/locales/tr/pages.json' with { type: 'json' }
import trPlans from '#shared/i18n/locales/tr/plans.json' with { type: 'json' }
import trPricing from '#shared/i18n/locales/tr/pricing.json' with { type: 'json' }
import { localizeHref, publicPages } from '#shared/public-pages.ts'

export type Lang = 'en' | 'tr'
export const langs: readonly Lang[] = ['en', 'tr']

/** The locale files as the tests read them: the expected text comes from here, not from the app. */
const messages = {
  en: {
    common: enCommon,
    contact: enContact,
    errors: enErrors,
    landing: enLanding,
    pages: enPages,
    plans: enPlans,
    pricing: enPricing,
  },
  tr: {
    common: trCommon,
    contact: trContact,
    errors: trErrors,
    landing: trLanding,
    pages: trPages,
    plans: trPlans,
    pricing: trPricing,
  },
} as const

export const intlTag: Record<Lang, string> = { en: 'en-US', tr: 'tr-TR' }

/**
 * The browser locale: the language the app (/app…, /settings, /billing) starts in when none is
 * remembered. A public page's language comes from its URL instead (`localePath`).
 */
export const browserLocale = intlTag

/**
 * A public page's address in a language, query and hash kept: `localePath('tr', '/access?next=/app')`
 * is `/tr/access?next=/app`. The URL, not the browser, names a public page's language
 * (docs/decisions/0032-public-pages-per-language.md). Throws for a path that is not a public page,
 * so a typo cannot quietly test the English page.
 */
export function localePath(lang: Lang, path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? path
  if (!publicPages.some((page) => page.path === pathname)) throw new Error(`${pathname} is not a public page`)
  return localizeHref(lang, path)
}

/** Looks up a dotted key in a locale file and fills `{{name}}` placeholders; throws for a missing key. */
export function msg(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = messages[lang]
  for (const part of key.split('.')) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined
  }
  if (typeof node !== 'string') throw new Error(`no ${lang} message for ${key}`)
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = vars[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? formatCount(lang, value) : value
  })
}

export function formatCount(lang: Lang, value: number): string {
  return new Intl.NumberFormat(intlTag[lang]).format(value)
}

export function formatPrice(lang: Lang, usd: number): string {
  return new Intl.NumberFormat(intlTag[lang], {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  }).format(usd)
}

/** Every public route with the locale key of its h1. */
export const publicRoutes: readonly { path: string; h1: string }[] = [
  { path: '/', h1: 'landing.title' },
  { path: '/pricing', h1: 'pricing.title' },
  { path: '/contact', h1: 'contact.title' },
  { path: '/features', h1: 'pages.features.title' },
  { path: '/faq', h1: 'pages.faq.title' },
  { path: '/about', h1: 'pages.about.title' },
  { path: '/privacy', h1: 'pages.privacy.title' },
  { path: '/terms', h1: 'pages.terms.title' },
]

/** The footer's links, by target, with their locale keys. */
export const footerLinks: readonly { to: string; label: string }[] = [
  { to: '/features', label: 'common.footer.features' },
  { to: '/faq', label: 'common.footer.faq' },
  { to: '/about', label: 'common.footer.about' },
  { to: '/privacy', label: 'common.footer.privacy' },
  { to: '/terms', label: 'common.footer.terms' },
  { to: '/contact', label: 'common.footer.contact' },
]
