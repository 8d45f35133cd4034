import { defaultLocale, type Locale, locales } from '#shared/i18n/locales.ts'

/**
 * The public site: pages anyone can open without signing in, rendered to HTML at build time in
 * every language (docs/decisions/0032-public-pages-per-language.md). English lives at `/…`,
 * Turkish at `/tr/…` with the same slugs. The signed-in app keeps its own paths.
 */
export const publicPages = [
  { key: 'landing', path: '/', indexed: true },
  { key: 'pricing', path: '/pricing', indexed: true },
  { key: 'features', path: '/features', indexed: true },
  { key: 'faq', path: '/faq', indexed: true },
  { key: 'about', path: '/about', indexed: true },
  { key: 'contact', path: '/contact', indexed: true },
  { key: 'privacy', path: '/privacy', indexed: true },
  { key: 'terms', path: '/terms', indexed: true },
  { key: 'access', path: '/access', indexed: true },
  { key: 'signIn', path: '/auth/signin', indexed: true },
  { key: 'signUp', path: '/auth/signup', indexed: true },
  { key: 'resetPassword', path: '/auth/reset-password', indexed: true },
  // Reached only from an emailed link with a one-time token: rendered, never indexed.
  { key: 'resetPasswordConfirm', path: '/auth/reset-password/confirm', indexed: false },
] as const

export type PublicPage = (typeof publicPages)[number]
export type PublicPageKey = PublicPage['key']

/** The path prefix of each language; the default language has none. */
export const localePrefix: Record<Locale, string> = { en: '', tr: '/tr' }

/** A public page's path in a language: `/pricing` → `/tr/pricing`, `/` → `/tr/`. */
export function localizedPath(locale: Locale, path: string): string {
  const prefix = localePrefix[locale]
  if (!prefix) return path
  return path === '/' ? `${prefix}/` : `${prefix}${path}`
}

/**
 * A link target in a language: a public page's path gets the language's prefix (query and hash
 * kept); anything else (the app's own paths) is returned as is.
 */
export function localizeHref(locale: Locale, href: string): string {
  const cut = href.search(/[?#]/)
  const path = cut === -1 ? href : href.slice(0, cut)
  const rest = cut === -1 ? '' : href.slice(cut)
  if (!publicPages.some((page) => page.path === path)) return href
  return localizedPath(locale, path) + rest
}

/** The file the build writes a public page to, under the web build's `pages` folder. */
export function prerenderedFile(locale: Locale, page: PublicPage): string {
  return `${locale}${page.path === '/' ? '/index' : page.path}.html`
}

/** The public page a path shows and its language, or null for any other path (the app's own). */
export function publicPageOf(pathname: string): { page: PublicPage; locale: Locale } | null {
  const { locale, path } = splitLocale(pathname)
  const page = publicPages.find((candidate) => candidate.path === path)
  return page ? { page, locale } : null
}

/** The language a path names by its prefix (`/tr/…`), and the path without it. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  for (const locale of locales) {
    const prefix = localePrefix[locale]
    if (!prefix) continue
    if (pathname === prefix || pathname === `${prefix}/`) return { locale, path: '/' }
    if (pathname.startsWith(`${prefix}/`)) return { locale, path: pathname.slice(prefix.length) }
  }
  return { locale: defaultLocale, path: pathname }
}

/**
 * A public page's language alternates, as its hreflang links and the sitemap name them: its
 * path in every language, and x-default on the default language's.
 */
export function pageAlternates(path: string): { hreflang: Locale | 'x-default'; path: string }[] {
  return [
    ...locales.map((locale) => ({ hreflang: locale, path: localizedPath(locale, path) })),
    { hreflang: 'x-default' as const, path: localizedPath(defaultLocale, path) },
  ]
}

/** Text made safe inside markup (HTML or XML), quoted attribute values included. */
export function escapeMarkup(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
}

/** Every rendered public URL path, in every language. */
export function publicPaths(): { page: PublicPage; locale: Locale; path: string }[] {
  return publicPages.flatMap((page) =>
    locales.map((locale) => ({ page, locale, path: localizedPath(locale, page.path) })),
  )
}

/**
 * Stands for the site's public origin in prerendered HTML. The build cannot know where the site
 * will be served; the server puts its PUBLIC_URL in place when it reads the file.
 */
export const originPlaceholder = '%VITRIN_ORIGIN%'

/**
 * The cookie holding the language a visitor last read the site in, beside the stored choice: the
 * server sends an English address to its `/tr/…` page by it.
 */
export const languageCookie = 'vitrin_lang'

/** Where the build writes each page's social preview image, under the site's root. */
export function ogImagePath(locale: Locale, key: PublicPageKey): string {
  return `/og/${locale}/${key}.png`
}

export const ogImageSize = { width: 1200, height: 630 } as const
