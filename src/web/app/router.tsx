import { BrowserRouter, Navigate, Route, Routes } from 'react-router'
import { appPages } from '#shared/app-pages.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { localePrefix, localizedPath, publicPages } from '#shared/public-pages.ts'
import { RootLayout } from '#web/components/layout/root-layout.tsx'
import { appPageComponents, publicPageComponents } from './pages.tsx'
import { RequireSession } from './require-session.tsx'

function guarded(element: React.ReactNode) {
  return <RequireSession>{element}</RequireSession>
}

/**
 * The public pages under one language's prefix: English at the root, Turkish under /tr
 * (docs/decisions/0032-public-pages-per-language.md). An unknown path goes to that language's
 * landing page, as the server sends it there on a page load.
 */
function publicRoutes(locale: Locale) {
  return [
    ...publicPages.map(({ key, path }) => {
      const { Component } = publicPageComponents[key]
      return path === '/' ? (
        <Route key={key} index element={<Component />} />
      ) : (
        <Route key={key} path={path.slice(1)} element={<Component />} />
      )
    }),
    <Route key="*" path="*" element={<Navigate to={localizedPath(locale, '/')} replace />} />,
  ]
}

/** Every route of the app. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path={localePrefix.tr.slice(1)}>{publicRoutes('tr')}</Route>
        {appPages.map(({ key, path }) => {
          const { Component } = appPageComponents[key]
          return <Route key={key} path={path.slice(1)} element={guarded(<Component />)} />
        })}
        {publicRoutes('en')}
      </Route>
    </Routes>
  )
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  )
}
