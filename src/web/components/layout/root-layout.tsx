import { Suspense, useEffect, useRef } from 'react'
import { Outlet, useLocation } from 'react-router'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useLanguageOfUrl } from '#web/lib/localized-paths.ts'
import { usePublicPageHead } from '#web/lib/public-page-head.ts'
import { SiteFooter } from './site-footer.tsx'
import { SiteHeader } from './site-header.tsx'

/** The frame of every route: skip link, header, the page, footer. */
export function RootLayout() {
  const { t } = useI18n()
  const location = useLocation()
  useLanguageOfUrl()
  usePublicPageHead()

  const lastPathname = useRef(location.pathname)

  // After an in-app navigation, start at the top of the new page and move focus to its content,
  // as a full page load would, so screen readers begin there.
  useEffect(() => {
    if (lastPathname.current === location.pathname) return
    lastPathname.current = location.pathname
    window.scrollTo(0, 0)
    document.getElementById('main')?.focus({ preventScroll: true })
  }, [location.pathname])

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-brand-700 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('common.skipToContent')}
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  )
}

export function PageSpinner() {
  const { t } = useI18n()
  return (
    <div className="flex min-h-[40vh] items-center justify-center text-brand-700">
      <Spinner label={t('common.loading')} className="size-8" />
    </div>
  )
}
