import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { isAppPath } from '#shared/app-pages.ts'
import { defaultLocale } from '#shared/i18n/locales.ts'
import {
  languageCookie,
  localePrefix,
  localizedPath,
  originPlaceholder,
  prerenderedFile,
  publicPageOf,
  splitLocale,
} from '#shared/public-pages.ts'
import type { AppEnv } from './context.ts'
import { robotsTxt, sitemapXml } from './public-site.ts'
import { cspDirectives, cspHeader } from './security-headers.ts'

/**
 * Serves the built web app: hashed assets cached for a year, other files for an hour; each
 * public page's prerendered HTML at its URL in each language (docs/decisions/0032-public-pages-per-language.md),
 * with robots.txt and sitemap.xml; and index.html (never cached) for the app's own pages
 * (shared/app-pages.ts), so its client-side routes work on reload. Any other path is no page:
 * a 302 to the home page of its language (`/`, or `/tr/` under `/tr/…`), as the seed says.
 */
/** `publicUrl` is asked each time: with PORT=0 it is known only once the server listens. */
export function mountWebApp(
  app: Hono<AppEnv>,
  options: { webDistDir: string; publicUrl: () => string; isProduction: boolean },
): void {
  const { webDistDir, publicUrl } = options
  const root = resolve(webDistDir)
  const indexPath = join(root, 'index.html')

  app.get('/robots.txt', (c) => {
    c.header('Cache-Control', 'public, max-age=3600')
    return c.text(robotsTxt(publicUrl()))
  })
  app.get('/sitemap.xml', (c) => {
    c.header('Cache-Control', 'public, max-age=3600')
    c.header('Content-Type', 'application/xml; charset=utf-8')
    return c.body(sitemapXml(publicUrl()))
  })

  mountFiles(app, root)

  // Read once, with the public origin put in (the build could not know it), and a CSP that
  // allows the page's inline stylesheet (the build inlines it: one request fewer before first paint).
  const pages = new Map<string, { html: string; csp: string } | null>()
  const prerendered = (file: string) => {
    let page = pages.get(file)
    if (page === undefined) {
      const path = join(root, 'pages', file)
      page = existsSync(path)
        ? prerenderedPage(readFileSync(path, 'utf8'), publicUrl(), options.isProduction)
        : null
      pages.set(file, page)
    }
    return page
  }

  let indexHtml: string | undefined
  app.get('*', (c) => {
    const path = c.req.path
    const query = new URL(c.req.url).search
    const languageHome = localizedPath('tr', '/')
    if (path === localePrefix.tr) return c.redirect(`${languageHome}${query}`, 301)
    // A public page asked for with a trailing slash has one address: without it.
    if (path.length > 1 && path.endsWith('/') && path !== languageHome && publicPageOf(path.slice(0, -1))) {
      return c.redirect(`${path.slice(0, -1)}${query}`, 301)
    }
    const match = publicPageOf(path)
    if (!match && !isAppPath(path)) {
      // No page here: the home page of the address's language. A redirect, not a page, so a
      // crawler indexes nothing at this address.
      return c.redirect(localizedPath(splitLocale(path).locale, '/'), 302)
    }
    // An address without a language prefix follows the language the visitor chose.
    if (match?.locale === defaultLocale) {
      const redirect = rememberedLanguagePage(c, match.page.path)
      if (redirect) return redirect
    }
    const page = match ? prerendered(prerenderedFile(match.locale, match.page)) : null
    if (page) {
      c.header('Cache-Control', 'no-cache')
      c.header('Content-Security-Policy', page.csp)
      return c.html(page.html)
    }
    if (indexHtml === undefined && existsSync(indexPath)) indexHtml = readFileSync(indexPath, 'utf8')
    if (indexHtml === undefined) {
      return c.text('The web app is not built yet. Run `npm run build` (npm start does this for you).', 503)
    }
    c.header('Cache-Control', 'no-cache')
    // The app's own pages, and a public page whose prerendered file is not there (a build
    // without the prerender step).
    return c.html(indexHtml)
  })
}

/**
 * A prerendered page as served: the origin filled in; its inline styles, and its inline script
 * (an English page's language check, scripts/lib/prerender.ts), allowed by their hashes.
 */
function prerenderedPage(file: string, origin: string, isProduction: boolean): { html: string; csp: string } {
  const html = file.replaceAll(originPlaceholder, origin)
  const hashesOf = (pattern: RegExp) =>
    [...html.matchAll(pattern)].map(
      (match) =>
        `'sha256-${createHash('sha256')
          .update(match[1] ?? '')
          .digest('base64')}'`,
    )
  // Only elements without attributes: a JSON-LD block is data, never run.
  const styles = hashesOf(/<style>([\s\S]*?)<\/style>/g)
  const scripts = hashesOf(/<script>([\s\S]*?)<\/script>/g)
  const directives = cspDirectives({ isProduction })
  return {
    html,
    csp: cspHeader({
      ...directives,
      scriptSrc: [...(directives.scriptSrc ?? []), ...scripts],
      styleSrc: [...(directives.styleSrc ?? []), ...styles],
    }),
  }
}

/**
 * An English public page for someone who reads Turkish: a redirect to the same page's Turkish
 * address, before anything is sent. Their last choice wins (the cookie the web app keeps beside
 * its stored choice); with none, a first visit follows the browser's language (Accept-Language
 * preferring Turkish to English). The page itself checks the stored choice too, for a browser
 * whose cookie is gone. Nothing redirects a `/tr/…` address by language, so there is no loop,
 * and a crawler (no cookie, no Turkish Accept-Language) gets the page at the address it asked for.
 */
function rememberedLanguagePage(c: Context<AppEnv>, pagePath: string): Response | null {
  c.header('Vary', 'Cookie, Accept-Language')
  const remembered = getCookie(c, languageCookie)
  const reads =
    remembered === 'tr' || remembered === 'en' ? remembered : browserLanguage(c.req.header('accept-language'))
  if (reads !== 'tr') return null
  c.header('Cache-Control', 'no-cache')
  return c.redirect(`${localizedPath('tr', pagePath)}${new URL(c.req.url).search}`, 302)
}

/**
 * The one of English and Turkish a browser ranks higher in its Accept-Language header (by q,
 * then order: "tr-TR,tr;q=0.9,en;q=0.8" is Turkish); null when it names neither.
 */
export function browserLanguage(header: string | undefined): 'en' | 'tr' | null {
  if (!header) return null
  let best: { lang: 'en' | 'tr'; q: number } | null = null
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.trim().split(';')
    const lang = range.trim().toLowerCase().split('-')[0]
    if (lang !== 'en' && lang !== 'tr') continue
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
    const q = qParam ? Number(qParam.slice(2)) : 1
    if (!Number.isFinite(q) || q <= 0) continue
    if (!best || q > best.q) best = { lang, q }
  }
  return best?.lang ?? null
}

function mountFiles(app: Hono<AppEnv>, root: string): void {
  // Made on the first request, not while the app is put together (createApp touches no file);
  // before the first build there is nothing to serve but the hint of the page route.
  let served: { assets: MiddlewareHandler; files: MiddlewareHandler } | null | undefined
  const serving = () => {
    if (served !== undefined) return served
    served = existsSync(root)
      ? {
          assets: serveStatic({
            root,
            // The build wrote a .br and a .gz of each: sent as they are, not compressed per request.
            precompressed: true,
            onFound: (_path, c) => {
              c.header('Cache-Control', 'public, max-age=31536000, immutable')
            },
          }),
          files: serveStatic({
            root,
            // index.html and the prerendered pages are served by the routes below, at their own URLs.
            rewriteRequestPath: (path) =>
              path === '/' || path === '/index.html' || path.startsWith('/pages/')
                ? '/__no_such_file__'
                : path,
            onFound: (_path, c) => {
              c.header('Cache-Control', 'public, max-age=3600')
            },
          }),
        }
      : null
    return served
  }
  app.use('/assets/*', (c, next) => serving()?.assets(c, next) ?? next())
  // A hashed asset that is not there (an old page asking for a chunk of an earlier build) is a
  // 404, not the app's HTML, so the browser fails fast instead of parsing HTML as a script.
  app.get('/assets/*', (c, next) => (serving() ? c.text('Not found', 404) : next()))
  app.use('*', (c, next) => serving()?.files(c, next) ?? next())
}
