import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { allMessages, translateIn } from '#shared/i18n/locales/all.ts'
import { defaultLocale, type Locale } from '#shared/i18n/locales.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import type { MessageVars } from '#shared/i18n/translate.ts'
import { localePrefix, type PublicPage, prerenderedFile, publicPaths } from '#shared/public-pages.ts'
import { publicPageHead } from '#web/app/page-head.ts'
import { renderPublicPage } from '#web/app/prerender.tsx'
import { languageStorageKey } from '#web/lib/i18n.tsx'

type ManifestChunk = { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[] }
type Manifest = Record<string, ManifestChunk>

/** Where Vite writes its manifest (build.manifest in vite.config.ts); read here, then removed. */
const manifestFile = join('.vite', 'manifest.json')

/** A chunk's file and every chunk it imports statically, each once. */
function chunkFiles(manifest: Manifest, key: string, seen = new Set<string>()): string[] {
  const chunk = manifest[key]
  if (!chunk || seen.has(key)) return []
  seen.add(key)
  return [chunk.file, ...(chunk.imports ?? []).flatMap((imported) => chunkFiles(manifest, imported, seen))]
}

/**
 * What a page fetches before it hydrates (web/main.tsx): its own chunk and its language's text.
 * Preloaded together with the entry (see startAfterFirstPaint), they are fetched at once instead of one after another.
 */
function preloadsFor(
  manifest: Manifest | null,
  page: PublicPage,
  locale: Locale,
  entryFiles: Set<string>,
): string[] {
  if (!manifest) return []
  const route = Object.keys(manifest).find((key) => key.endsWith(`app/routes/${routeFileOf(page.key)}.tsx`))
  const base = Object.keys(manifest).find((key) => key.endsWith(`i18n/locales/${locale}/base.ts`))
  const full = Object.keys(manifest).find((key) => key.endsWith(`i18n/locales/${locale}/index.ts`))
  const keys = [route, base, page.key === 'landing' ? undefined : full].filter((key) => key !== undefined)
  const files = new Set(keys.flatMap((key) => chunkFiles(manifest, key)))
  return [...files].filter((file) => !entryFiles.has(file))
}

/** A page's file under web/app/routes: its key in kebab case (`signIn` → `sign-in`). */
export function routeFileOf(key: PublicPage['key']): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
}

/** The files the entry HTML already names (script, modulepreload, stylesheet). */
function filesNamedIn(html: string): Set<string> {
  return new Set([...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((match) => match[1] ?? ''))
}

/**
 * The stylesheet inlined: the page paints without waiting for another request. (The server
 * allows exactly this style element by its hash, server/http/web-app.ts.)
 */
function inlineStylesheet(html: string, webDist: string): string {
  const link = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/.exec(html)
  if (!link?.[1]) return html
  const css = readFileSync(join(webDist, link[1]), 'utf8')
  return html.replace(link[0], () => `<style>${css}</style>`)
}

/**
 * hydrate.js (src/web/public, copied to the build's root) as a file named by its content under
 * /assets, where files are served `immutable` for a year: a returning visitor's browser never asks
 * for it again, and a new build's script has a new name. Answers its address.
 */
function hashedStarter(webDist: string): string {
  const source = join(webDist, 'hydrate.js')
  if (!existsSync(source)) throw new Error('prerender: the build has no hydrate.js (src/web/public)')
  const bytes = readFileSync(source)
  const name = `assets/hydrate-${createHash('sha256').update(bytes).digest('hex').slice(0, 10)}.js`
  mkdirSync(join(webDist, 'assets'), { recursive: true })
  writeFileSync(join(webDist, name), bytes)
  return `/${name}`
}

/**
 * The page's scripts, started by hydrate.js once the page has painted (src/web/public/hydrate.js):
 * the entry script and every module to preload leave the head, and come back as that script's
 * data. The page is readable without them; on a slow connection they no longer compete with it.
 */
function startAfterFirstPaint(html: string, preloads: string[], starterSrc: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html)
  if (!entry?.[1]) throw new Error('prerender: the built index.html has no module script')
  const templatePreloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
    (match) => match[1] ?? '',
  )
  const modules = [...new Set([...templatePreloads, ...preloads])]
  const starter = `<script src="${starterSrc}" data-entry="${entry[1]}" data-preload="${modules.join(' ')}" defer></script>`
  return html
    .replace(entry[0], () => starter)
    .replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '')
}

/**
 * The first thing an English page runs, before it paints: a browser whose stored language is
 * Turkish goes to the same page's Turkish address (docs/decisions/0032-public-pages-per-language.md),
 * query and fragment kept, the English page hidden meanwhile and not started (hydrate.js reads
 * `data-leaving`). Inline, allowed by its hash (server/http/web-app.ts): a file would cost every
 * first visit a request before the page can paint. A browser with no stored choice (every
 * crawler) runs one storage read.
 */
export const rememberedLanguageScript = `(()=>{try{if(localStorage.getItem(${JSON.stringify(languageStorageKey)})!=="tr")return}catch{return}const root=document.documentElement;root.style.display="none";root.dataset.leaving="";const path=location.pathname;location.replace(${JSON.stringify(localePrefix.tr)}+(path==="/"?"/":path)+location.search+location.hash)})()`

function replaceOnce(
  html: string,
  search: string | RegExp,
  replacement: string | ((found: string) => string),
): string {
  const found = typeof search === 'string' ? html.includes(search) : search.test(html)
  if (!found) throw new Error(`prerender: the built index.html has no ${String(search)}`)
  return html.replace(search, (match) => (typeof replacement === 'string' ? replacement : replacement(match)))
}

/**
 * Writes every public page in every language as HTML under `<webDist>/pages/` (the server
 * answers their URLs with them, server/http/web-app.ts). The built index.html is the template: its head gets the page's tags,
 * its root the rendered page; lang-init.js is dropped (the URL names the language), and an
 * English page gets the stored-language check instead (rememberedLanguageScript).
 */
export async function prerenderPublicPages(webDist: string): Promise<number> {
  const template = readFileSync(join(webDist, 'index.html'), 'utf8')
  const manifestPath = join(webDist, manifestFile)
  const manifest: Manifest | null = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest)
    : null
  const entryFiles = filesNamedIn(template)
  rmSync(join(webDist, 'pages'), { recursive: true, force: true })
  const starterSrc = hashedStarter(webDist)

  let pages = 0
  for (const { page, locale } of publicPaths()) {
    const t = (key: TKey, vars?: MessageVars) => translateIn(locale, key, vars)
    const body = await renderPublicPage(page, locale, allMessages[locale])
    const preloads = preloadsFor(manifest, page, locale, entryFiles).map((file) => `/${file}`)
    let html = template
    html = replaceOnce(html, /<html lang="[^"]*">/, `<html lang="${locale}">`)
    html = replaceOnce(html, /\s*<meta name="description"[^>]*>/, '')
    html = replaceOnce(html, /<title>[^<]*<\/title>/, publicPageHead(page, locale, t))
    html = replaceOnce(html, /\s*<script src="\/lang-init\.js"><\/script>/, '')
    if (locale === defaultLocale) {
      html = replaceOnce(
        html,
        /<meta charset="[^"]*"\s*\/?>/,
        (charset) => `${charset}\n    <script>${rememberedLanguageScript}</script>`,
      )
    }
    html = inlineStylesheet(html, webDist)
    html = startAfterFirstPaint(html, preloads, starterSrc)
    html = replaceOnce(html, /\s*<noscript>[\s\S]*?<\/noscript>/, '')
    html = replaceOnce(html, '<div id="root"></div>', `<div id="root">${body}</div>`)
    const file = join(webDist, 'pages', prerenderedFile(locale, page))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, html)
    pages += 1
  }
  // Only the build needs the manifest; it is not served.
  rmSync(join(webDist, '.vite'), { recursive: true, force: true })
  return pages
}
