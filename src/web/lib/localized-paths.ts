import { useCallback, useEffect } from 'react'
import { useLocation } from 'react-router'
import { localizeHref, publicPageOf } from '#shared/public-pages.ts'
import { rememberLocale, useI18n } from './i18n.tsx'

/**
 * Links in the current language: a public page's path gets the language's prefix (`/pricing` →
 * `/tr/pricing`), the app's own paths stay as they are.
 */
export function useLocalizedHref(): (href: string) => string {
  const { locale } = useI18n()
  return useCallback((href: string) => localizeHref(locale, href), [locale])
}

/**
 * On a public page the URL names the language (docs/decisions/0032-public-pages-per-language.md):
 * the page is shown in it, and it becomes the remembered language. The app's own pages keep
 * the current one.
 */
export function useLanguageOfUrl(): void {
  const { locale, setLocale } = useI18n()
  const { pathname } = useLocation()
  const urlLocale = publicPageOf(pathname)?.locale
  useEffect(() => {
    if (!urlLocale) return
    if (urlLocale !== locale) void setLocale(urlLocale)
    else rememberLocale(locale)
  }, [urlLocale, locale, setLocale])
}
