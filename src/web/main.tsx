import '#web/lib/zod-config.ts'
import './index.css'
import { startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { appPageOf } from '#shared/app-pages.ts'
import { publicPageOf } from '#shared/public-pages.ts'
import { AppProviders } from '#web/app/app-providers.tsx'
import { appPageComponents, appPageFirstReads, publicPageComponents } from '#web/app/pages.tsx'
import { AppRouter } from '#web/app/router.tsx'
import { primeGet } from '#web/lib/api-client.ts'
import { detectInitialLocale, loadBaseMessages, loadedMessages } from '#web/lib/i18n.tsx'

async function start() {
  const root = document.getElementById('root')
  if (!root) throw new Error('#root is missing from index.html')
  const locale = detectInitialLocale()
  const publicPage = publicPageOf(window.location.pathname)

  if (publicPage && root.hasChildNodes()) {
    // A page the build prerendered (scripts/prerender.ts): it is already on screen. Its code
    // and text are loaded before hydrating, so it hydrates in one pass with nothing moving.
    const [base] = await Promise.all([
      loadBaseMessages(locale),
      publicPageComponents[publicPage.page.key].preload(),
    ])
    const messages = loadedMessages(locale) ?? base
    // In a transition, hydration yields to the browser between pieces of work.
    startTransition(() => {
      hydrateRoot(
        root,
        <AppProviders locale={locale} messages={messages} isHydrating>
          <AppRouter />
        </AppProviders>,
      )
    })
    return
  }

  // The signed-in app (and any page served without prerendered HTML) renders on the client.
  // What it will ask for first starts now, beside its language: who is signed in, the page's
  // code and the page's first data, rather than each after the one before.
  primeGet('/api/session')
  const appPage = appPageOf(window.location.pathname)
  if (appPage) {
    for (const path of appPageFirstReads[appPage] ?? []) primeGet(path)
    void appPageComponents[appPage].preload().catch(() => undefined)
  }
  // It renders only once its language is loaded, so no text flashes in the wrong language.
  // The landing page needs only the base namespaces; other pages load the rest before rendering.
  const messages = await loadBaseMessages(locale)
  createRoot(root).render(
    <AppProviders locale={locale} messages={messages} isHydrating={false}>
      <AppRouter />
    </AppProviders>,
  )
}

void start()
