import { appPages } from '#shared/app-pages.ts'
import { locales } from '#shared/i18n/locales.ts'
import { escapeMarkup, localizedPath, pageAlternates, publicPages } from '#shared/public-pages.ts'

/**
 * The app's signed-in pages (each top-level folder of shared/app-pages.ts) and the APIs:
 * nothing there for a search engine.
 */
const privatePrefixes = [...new Set(appPages.map((page) => `/${page.path.split('/')[1]}`)), '/api/', '/v1/']

/** /robots.txt: everything public may be crawled; the app and the APIs are not; where the sitemap is. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...privatePrefixes.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n')
}

/**
 * /sitemap.xml: every indexed public page in every language, each entry naming its other
 * languages (and x-default, the English page), as the pages' own hreflang links do.
 */
export function sitemapXml(origin: string): string {
  const entries = publicPages
    .filter((page) => page.indexed)
    .flatMap((page) => {
      const alternates = pageAlternates(page.path)
        .map(
          (link) =>
            `    <xhtml:link rel="alternate" hreflang="${link.hreflang}" href="${escapeMarkup(`${origin}${link.path}`)}"/>`,
        )
        .join('\n')
      return locales.map(
        (locale) =>
          `  <url>\n    <loc>${escapeMarkup(`${origin}${localizedPath(locale, page.path)}`)}</loc>\n${alternates}\n  </url>`,
      )
    })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n')
}
