import './index.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRouter } from '#web/app/router.tsx'
import { detectInitialLocale, I18nProvider, loadBaseMessages } from '#web/lib/i18n.tsx'
import { SessionProvider } from '#web/lib/session.tsx'

async function start() {
  const locale = detectInitialLocale()
  // The page renders only once its language is loaded, so no text flashes in the wrong language.
  // The landing page needs only the base namespaces; other pages load the rest before rendering.
  const messages = await loadBaseMessages(locale)
  const root = document.getElementById('root')
  if (!root) throw new Error('#root is missing from index.html')
  createRoot(root).render(
    <StrictMode>
      <I18nProvider locale={locale} messages={messages}>
        <SessionProvider>
          <AppRouter />
        </SessionProvider>
      </I18nProvider>
    </StrictMode>,
  )
}

void start()
