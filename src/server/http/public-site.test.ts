import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  languageCookie,
  originPlaceholder,
  prerenderedFile,
  publicPages,
  publicPaths,
} from '#shared/public-pages.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { browserLanguage } from './web-app.ts'

const origin = 'https://vitrin.test'
const indexHtml = '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>'

/** What the build writes for a page (scripts/lib/prerender.ts), reduced to what serving it needs. */
function pageHtml(locale: string, path: string): string {
  const script = path === '/contact' ? `<script>${contactScript}</script>` : ''
  return `<!doctype html><html lang="${locale}"><head>${script}<link rel="canonical" href="${originPlaceholder}${path}" /><script type="application/ld+json">{}</script></head><body><div id="root"><h1>${locale} ${path}</h1></div></body></html>`
}

/** An inline script on one page (the build puts one on every English page). */
const contactScript = 'document.documentElement.dataset.checked = ""'

describe('the public site', () => {
  let dist: string
  let server: TestServer

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'vitrin-public-'))
    writeFileSync(join(dist, 'index.html'), indexHtml)
    for (const { page, locale, path } of publicPaths()) {
      const file = join(dist, 'pages', prerenderedFile(locale, page))
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, pageHtml(locale, path))
    }
    server = await startTestServer({ WEB_DIST_DIR: dist, PUBLIC_URL: origin })
  })
  afterAll(async () => {
    await server.close()
    rmSync(dist, { recursive: true, force: true })
  })

  it('answers every public page in every language with its own prerendered HTML, the origin filled in', async () => {
    for (const { locale, path } of publicPaths()) {
      const response = await server.api(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-cache')
      const html = await response.text()
      expect(html, path).toContain(`<html lang="${locale}">`)
      expect(html, path).toContain(`<h1>${locale} ${path}</h1>`)
      expect(html, path).toContain(`<link rel="canonical" href="${origin}${path}" />`)
      expect(html).not.toContain(originPlaceholder)
    }
  })

  it('keeps the query string on a prerendered page', async () => {
    const response = await server.api('/tr/auth/signup?plan=growth')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<h1>tr /tr/auth/signup</h1>')
  })

  it("answers the app's pages with the app shell", async () => {
    for (const path of ['/app', '/app/create', '/app/catalogue/b_1', '/settings', '/billing/success']) {
      const response = await server.api(path)
      expect(response.status, path).toBe(200)
      expect(await response.text(), path).toBe(indexHtml)
    }
  })

  it('sends any other path to the home page of its language with a 302, which no crawler indexes', async () => {
    const cases: [string, string][] = [
      ['/no/such/page', '/'],
      ['/no-such-page?x=1', '/'],
      ['/app/nowhere', '/'],
      ['/features/x', '/'],
      ['/index.html', '/'],
      ['/tr/no-such-page', '/tr/'],
      ['/tr/app', '/tr/'],
      ['/tr/features/x', '/tr/'],
    ]
    for (const [from, to] of cases) {
      const response = await server.api(from, { redirect: 'manual' })
      expect(response.status, from).toBe(302)
      expect(response.headers.get('location'), from).toBe(to)
    }
  })

  it('leaves the APIs answering their own JSON 404', async () => {
    const api = await server.api('/api/no-such-endpoint', { redirect: 'manual' })
    expect(api.status).toBe(404)
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND')
    // /v1 asks for its key before anything else: a JSON error, never the web app's redirect.
    const v1 = await server.api('/v1/no-such-endpoint', { redirect: 'manual' })
    expect(v1.status).not.toBe(302)
    expect(v1.headers.get('content-type')).toContain('application/json')
  })

  it('gives each page one address: /tr goes to /tr/, a trailing slash is dropped', async () => {
    const cases: [string, string][] = [
      ['/tr', '/tr/'],
      ['/tr?x=1', '/tr/?x=1'],
      ['/pricing/', '/pricing'],
      ['/tr/faq/?q=a', '/tr/faq?q=a'],
    ]
    for (const [from, to] of cases) {
      const response = await server.api(from, { redirect: 'manual' })
      expect(response.status, from).toBe(301)
      expect(
        new URL(response.headers.get('location') ?? '', origin).pathname +
          new URL(response.headers.get('location') ?? '', origin).search,
      ).toBe(to)
    }
  })

  it('sends an English page to its Turkish address for a visitor who last chose Turkish', async () => {
    for (const [from, to] of [
      ['/', '/tr/'],
      ['/pricing', '/tr/pricing'],
      ['/auth/reset-password/confirm?token=abc', '/tr/auth/reset-password/confirm?token=abc'],
    ] as const) {
      const remembered = await server.api(from, {
        redirect: 'manual',
        headers: { Cookie: `${languageCookie}=tr` },
      })
      expect(remembered.status, from).toBe(302)
      expect(remembered.headers.get('location'), from).toBe(to)
      expect(remembered.headers.get('vary'), from).toContain('Cookie')
    }

    // A crawler (no cookie), and an English reader, get the page they asked for.
    const visitors: Record<string, string>[] = [
      {},
      { Cookie: `${languageCookie}=en` },
      { Cookie: `${languageCookie}=xx` },
    ]
    for (const headers of visitors) {
      for (const path of ['/', '/pricing']) {
        const response = await server.api(path, { redirect: 'manual', headers })
        expect(response.status, path).toBe(200)
        expect(response.headers.get('vary'), path).toContain('Cookie')
        expect(await response.text()).toContain(`<h1>en ${path}</h1>`)
      }
    }
    // A Turkish address is Turkish whatever the choice, so there is never a loop.
    for (const path of ['/tr/', '/tr/pricing']) {
      for (const value of ['en', 'tr']) {
        const response = await server.api(path, {
          redirect: 'manual',
          headers: { Cookie: `${languageCookie}=${value}` },
        })
        expect(response.status, `${path} ${value}`).toBe(200)
      }
    }
  })

  it('sends a first visit from a Turkish browser to the Turkish page; a stored choice wins', async () => {
    const turkish = await server.api('/pricing', {
      redirect: 'manual',
      headers: { 'Accept-Language': 'tr-TR,tr;q=0.9,en-US;q=0.8,en;q=0.7' },
    })
    expect(turkish.status).toBe(302)
    expect(turkish.headers.get('location')).toBe('/tr/pricing')
    expect(turkish.headers.get('vary')).toContain('Accept-Language')
    const others: Record<string, string>[] = [
      // An English browser, a browser that names neither, and a crawler's '*'.
      { 'Accept-Language': 'en-GB,en;q=0.9,tr;q=0.5' },
      { 'Accept-Language': 'de-DE,de;q=0.9' },
      { 'Accept-Language': '*' },
      // A Turkish browser whose reader chose English.
      { 'Accept-Language': 'tr-TR,tr;q=0.9', Cookie: `${languageCookie}=en` },
    ]
    for (const headers of others) {
      const response = await server.api('/pricing', { redirect: 'manual', headers })
      expect(response.status, JSON.stringify(headers)).toBe(200)
    }
    expect(browserLanguage('en;q=0.4, tr;q=0.6')).toBe('tr')
    expect(browserLanguage('tr;q=0, en')).toBe('en')
    expect(browserLanguage(undefined)).toBeNull()
  })

  it('allows an inline script on a prerendered page by its hash, and no other', async () => {
    const response = await server.api('/contact')
    const csp = response.headers.get('content-security-policy') ?? ''
    const scriptSrc = csp.split('; ').find((directive) => directive.startsWith('script-src ')) ?? ''
    const hash = createHash('sha256').update(contactScript).digest('base64')
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`)
    expect(csp).not.toContain('unsafe-inline')
  })

  it('serves robots.txt: the public site open, the app and the APIs closed, the sitemap named', async () => {
    const response = await server.api('/robots.txt')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/plain')
    const lines = (await response.text()).split('\n')
    expect(lines[0]).toBe('User-agent: *')
    expect(lines).toContain('Allow: /')
    for (const prefix of ['/app', '/settings', '/billing', '/api/', '/v1/'])
      expect(lines).toContain(`Disallow: ${prefix}`)
    expect(lines).toContain(`Sitemap: ${origin}/sitemap.xml`)
    // Every line is a directive robots.txt knows, or blank.
    for (const line of lines)
      expect(line).toMatch(/^(|User-agent: .+|Allow: \/.*|Disallow: \/.*|Sitemap: https?:\/\/\S+)$/)
  })

  it('serves sitemap.xml listing every indexed page in both languages, each naming the other', async () => {
    const response = await server.api('/sitemap.xml')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/xml')
    const xml = await response.text()
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
      ),
    ).toBe(true)
    const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => {
      const body = match[1] ?? ''
      return {
        loc: /<loc>([^<]+)<\/loc>/.exec(body)?.[1],
        alternates: Object.fromEntries(
          [...body.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
            (link) => [link[1], link[2]],
          ),
        ),
      }
    })
    const expected = publicPaths()
      .filter(({ page }) => page.indexed)
      .map(({ path }) => `${origin}${path}`)
    expect(urls.map((url) => url.loc).sort()).toEqual(expected.sort())
    expect(urls).toHaveLength(publicPages.filter((page) => page.indexed).length * 2)
    for (const url of urls) {
      // The entry is one of its own alternates, and its language pair lists it back.
      expect(Object.values(url.alternates)).toContain(url.loc)
      for (const lang of ['en', 'tr']) {
        const pair = urls.find((other) => other.loc === url.alternates[lang])
        expect(pair?.alternates).toEqual(url.alternates)
      }
      expect(url.alternates['x-default']).toBe(url.alternates.en)
    }
    expect(xml).not.toContain('reset-password/confirm')
  })
})
