import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allMessages } from '#shared/i18n/locales/all.ts'
import { plans } from '#shared/plans.ts'
import { originPlaceholder, prerenderedFile, publicPages, publicPaths } from '#shared/public-pages.ts'
import { faqGroups } from '#web/app/faq-items.ts'
import { prerenderPublicPages, rememberedLanguageScript, routeFileOf } from './prerender.ts'

/** The parts of Vite's built index.html the prerender step works on. */
const template = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The app's one description." />
    <title>Vitrin</title>
    <script src="/lang-init.js"></script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
    <noscript>Vitrin needs JavaScript to run.</noscript>
  </body>
</html>
`

/** What src/web/public/hydrate.js becomes in the build's root (copied as it is). */
const hydrateSource = '(() => { /* starts the app */ })()\n'

const messages = allMessages
let dist: string
const pageOf = (locale: 'en' | 'tr', path: string) => {
  const entry = publicPaths().find((candidate) => candidate.locale === locale && candidate.path === path)
  if (!entry) throw new Error(`no page ${path}`)
  return readFileSync(join(dist, 'pages', prerenderedFile(locale, entry.page)), 'utf8')
}
const attribute = (html: string, pattern: RegExp) => pattern.exec(html)?.[1]
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? '') as Record<string, unknown>,
  )

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'vitrin-prerender-'))
  mkdirSync(dist, { recursive: true })
  writeFileSync(join(dist, 'index.html'), template)
  writeFileSync(join(dist, 'hydrate.js'), hydrateSource)
  expect(await prerenderPublicPages(dist)).toBe(publicPaths().length)
})
afterAll(() => rmSync(dist, { recursive: true, force: true }))

describe('prerendered public pages', () => {
  it('holds each page rendered in its language, with its own title and description', () => {
    const titles = new Set<string>()
    for (const { page, locale, path } of publicPaths()) {
      const html = pageOf(locale, path)
      const seo = messages[locale].seo[page.key]
      expect(html, path).toContain(`<html lang="${locale}">`)
      const title = attribute(html, /<title>([^<]*)<\/title>/)
      expect(title, path).toBe(seo.title.replaceAll('&', '&amp;'))
      titles.add(title ?? '')
      expect(attribute(html, /<meta name="description" content="([^"]*)"/), path).toBe(
        seo.description.replaceAll('"', '&quot;'),
      )
      // One description and one title: the template's are replaced, not added to.
      expect(html.match(/<meta name="description"/g)).toHaveLength(1)
      expect(html.match(/<title>/g)).toHaveLength(1)
      // The page itself, not an empty root; no script decides the language, no "needs JavaScript".
      expect(html, path).toMatch(/<div id="root"><div class="flex min-h-screen flex-col">/)
      expect(html).toMatch(/<h1[ >]/)
      expect(html).not.toContain('lang-init.js')
      expect(html).not.toContain('<noscript>')
      // The entry script starts once the page has painted (public/hydrate.js), with its modules;
      // the starter is served from /assets under a name of its content, to be cached for good.
      const starter =
        /<script src="\/(assets\/hydrate-[0-9a-f]{10}\.js)" data-entry="\/assets\/index-abc\.js" data-preload="[^"]*" defer><\/script>/.exec(
          html,
        )
      expect(starter?.[1], path).toBeDefined()
      expect(readFileSync(join(dist, starter?.[1] ?? 'none'), 'utf8')).toBe(hydrateSource)
      expect(html).not.toContain('<script type="module"')
    }
    expect(titles.size).toBe(publicPaths().length)
  })

  it('renders the real headings in each language', () => {
    const h1 = (html: string) => attribute(html, /<h1[^>]*>([^<]*)</)
    expect(h1(pageOf('en', '/'))).toBe(allMessages.en.landing.title)
    expect(h1(pageOf('tr', '/tr/'))).toBe(allMessages.tr.landing.title)
    expect(h1(pageOf('en', '/pricing'))).toBe(allMessages.en.pricing.title)
    expect(h1(pageOf('tr', '/tr/pricing'))).toBe(allMessages.tr.pricing.title)
    expect(h1(pageOf('tr', '/tr/faq'))).toBe(allMessages.tr.pages.faq.title)
    // The header and footer are in the page's language too, and link within it.
    expect(pageOf('tr', '/tr/faq')).toMatch(
      new RegExp(`href="/tr/pricing"[^>]*>${allMessages.tr.common.footer.pricing}</a>`),
    )
    expect(pageOf('en', '/faq')).toMatch(
      new RegExp(`href="/pricing"[^>]*>${allMessages.en.common.footer.pricing}</a>`),
    )
  })

  it('renders its forms inert until React takes them over', () => {
    for (const path of [
      '/auth/signin',
      '/tr/auth/signup',
      '/contact',
      '/tr/access',
      '/auth/reset-password',
    ]) {
      const locale = path.startsWith('/tr/') ? 'tr' : 'en'
      const forms = [...pageOf(locale, path).matchAll(/<form[^>]*>/g)].map((match) => match[0])
      expect(forms.length, path).toBeGreaterThan(0)
      for (const form of forms) expect(form, path).toContain('inert=""')
    }
  })

  it('starts an English page, before anything else, with the check of the stored language; a Turkish page has none', () => {
    for (const { locale, path } of publicPaths()) {
      const html = pageOf(locale, path)
      // Only classic scripts of our own, or inline data, besides the check.
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1])
      if (locale === 'tr') {
        expect(inline, path).toEqual([])
        continue
      }
      expect(inline, path).toEqual([rememberedLanguageScript])
      expect(html, path).toMatch(/<head>\s*<meta charset="UTF-8" \/>\s*<script>/)
      expect(html.indexOf('<script>'), path).toBeLessThan(html.indexOf('<script '))
    }
  })

  it('names its canonical address and its language alternates, with x-default on English', () => {
    for (const { page, locale, path } of publicPaths()) {
      const html = pageOf(locale, path)
      const enPath = page.path
      const trPath = page.path === '/' ? '/tr/' : `/tr${page.path}`
      expect(html).toContain(`<link rel="canonical" href="${originPlaceholder}${path}" />`)
      expect(html).toContain(`<link rel="alternate" hreflang="en" href="${originPlaceholder}${enPath}" />`)
      expect(html).toContain(`<link rel="alternate" hreflang="tr" href="${originPlaceholder}${trPath}" />`)
      expect(html).toContain(
        `<link rel="alternate" hreflang="x-default" href="${originPlaceholder}${enPath}" />`,
      )
      expect(html.includes('<meta name="robots" content="noindex" />'), path).toBe(!page.indexed)
    }
  })

  it("carries Open Graph and Twitter card tags with the page's own 1200×630 image", () => {
    const html = pageOf('tr', '/tr/pricing')
    expect(html).toContain(`<meta property="og:image" content="${originPlaceholder}/og/tr/pricing.png" />`)
    expect(html).toContain('<meta property="og:image:width" content="1200" />')
    expect(html).toContain('<meta property="og:image:height" content="630" />')
    expect(html).toContain('<meta property="og:locale" content="tr_TR" />')
    expect(html).toContain('<meta property="og:locale:alternate" content="en_US" />')
    expect(html).toContain(`<meta property="og:url" content="${originPlaceholder}/tr/pricing" />`)
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />')
    expect(html).toContain(`<meta name="twitter:image" content="${originPlaceholder}/og/tr/pricing.png" />`)
  })

  it('describes the organisation, the plans as offers from the plan catalogue, and the FAQ as FAQPage', () => {
    for (const { locale, path } of publicPaths()) {
      expect(
        jsonLd(pageOf(locale, path)).some((data) => data['@type'] === 'Organization'),
        path,
      ).toBe(true)
    }
    const product = jsonLd(pageOf('en', '/pricing')).find((data) => data['@type'] === 'Product')
    const offers = product?.offers as { price: string; priceCurrency: string; name: string }[]
    expect(offers.map((offer) => Number(offer.price))).toEqual(plans.map((plan) => plan.priceMonthlyUsd))
    expect(offers.every((offer) => offer.priceCurrency === 'USD')).toBe(true)

    const faq = jsonLd(pageOf('tr', '/tr/faq')).find((data) => data['@type'] === 'FAQPage')
    const questions = faq?.mainEntity as { name: string; acceptedAnswer: { text: string } }[]
    const ids = faqGroups.flatMap((group) => group.items)
    expect(questions.map((question) => question.name)).toEqual(
      ids.map((id) => allMessages.tr.pages.faq.items[id].question),
    )
    expect(questions[0]?.acceptedAnswer.text).toBe(allMessages.tr.pages.faq.items[ids[0] ?? 'photos'].answer)
    // The quota answer carries each plan's numbers, as the page lists them.
    const quota = questions[ids.indexOf('quota')]?.acceptedAnswer.text
    expect(quota).toContain('Growth: 1.000')
    expect(jsonLd(pageOf('en', '/about')).some((data) => data['@type'] === 'FAQPage')).toBe(false)
  })
})

describe('routeFileOf', () => {
  it("names each public page's route file, which is there", () => {
    expect(routeFileOf('resetPasswordConfirm')).toBe('reset-password-confirm')
    for (const page of publicPages) {
      expect(existsSync(join('src/web/app/routes', `${routeFileOf(page.key)}.tsx`)), page.key).toBe(true)
    }
  })
})
