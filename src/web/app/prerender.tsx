import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router'
import type { Locale } from '#shared/i18n/locales.ts'
import type { AppMessages } from '#shared/i18n/messages.ts'
import { localizedPath, type PublicPage } from '#shared/public-pages.ts'
import { AppProviders } from './app-providers.tsx'
import { publicPageComponents } from './pages.tsx'
import { AppRoutes } from './router.tsx'

/**
 * A public page as HTML, for the build to write out (scripts/prerender.ts): the same providers
 * and routes as in the browser, signed out (the session is still loading, as in the first
 * frame there). The page is loaded first, so nothing is left behind a Suspense fallback.
 */
export async function renderPublicPage(
  page: PublicPage,
  locale: Locale,
  messages: AppMessages,
): Promise<string> {
  await publicPageComponents[page.key].preload()
  return renderToString(
    <AppProviders locale={locale} messages={messages} isHydrating>
      <StaticRouter location={localizedPath(locale, page.path)}>
        <AppRoutes />
      </StaticRouter>
    </AppProviders>,
  )
}
