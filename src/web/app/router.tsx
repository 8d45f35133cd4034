import { BrowserRouter, Navigate, Route, Routes } from 'react-router'
import { localePrefix, localizedPath, publicPages } from '#shared/public-pages.ts'
import { RootLayout } from '#web/components/layout/root-layout.tsx'
import { RequireSession } from '#web/lib/require-session.tsx'
import { appPageComponents as app, publicPageComponents } from './pages.tsx'

function guarded(element: React.ReactNode) {
  return <RequireSession>{element}</RequireSession>
}

/**
 * The public pages under one language's prefix: English at the root, Turkish under /tr
 * (docs/decisions/0032-public-pages-per-language.md). An unknown path goes to that language's landing page.
 */
function publicRoutes(locale: 'en' | 'tr') {
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
        <Route path="app" element={guarded(<app.dashboard.Component />)} />
        <Route path="app/create" element={guarded(<app.create.Component />)} />
        <Route path="app/fashion" element={guarded(<app.fashion.Component />)} />
        <Route path="app/library" element={guarded(<app.library.Component />)} />
        <Route path="app/catalogue" element={guarded(<app.catalogue.Component />)} />
        <Route path="app/catalogue/:id" element={guarded(<app.catalogueBatch.Component />)} />
        <Route path="settings" element={guarded(<app.settings.Component />)} />
        <Route path="billing" element={guarded(<app.billing.Component />)} />
        <Route path="billing/success" element={guarded(<app.billingSuccess.Component />)} />
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
