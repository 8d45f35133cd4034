import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { localizedPath, pageAlternates, publicPageOf } from '#shared/public-pages.ts'
import { useI18n } from './i18n.tsx'

/**
 * Keeps the head of a public page right after an in-app navigation: the build writes each page's
 * title, description, canonical and language alternates into its HTML (scripts/prerender.ts);
 * moving to another page without a reload updates them the same way.
 */
export function usePublicPageHead(): void {
  const { t, locale } = useI18n()
  const { pathname } = useLocation()
  const current = publicPageOf(pathname)
  const key = current?.page.key
  const path = current?.page.path
  // The page first shown came with its head (prerendered, or the app shell's own); only a move
  // to another page changes it. That move waits for the page's text, the seo namespace included.
  const firstPath = useRef(pathname)
  useEffect(() => {
    if (pathname === firstPath.current && document.title !== '') return
    firstPath.current = ''
    if (!key || !path || current?.locale !== locale) return
    document.title = t(`seo.${key}.title`)
    document.querySelector('meta[name="description"]')?.setAttribute('content', t(`seo.${key}.description`))
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')
    if (canonical) canonical.href = new URL(localizedPath(locale, path), canonical.href).href
    for (const alternate of pageAlternates(path)) {
      const link = document.querySelector<HTMLLinkElement>(
        `link[rel="alternate"][hreflang="${alternate.hreflang}"]`,
      )
      if (link) link.href = new URL(alternate.path, link.href).href
    }
  }, [pathname, key, path, locale, current?.locale, t])
}
