import { type ReactNode, StrictMode } from 'react'
import type { Locale } from '#shared/i18n/locales.ts'
import type { AppMessages } from '#shared/i18n/messages.ts'
import { I18nProvider } from '#web/lib/i18n.tsx'
import { SessionProvider } from '#web/lib/session.tsx'
import { HydrationProvider } from '#web/lib/use-hydrated.ts'

/**
 * What every render of the app sits in, in the browser and when the build prerenders a public
 * page (prerender.tsx): the same tree on both sides, so hydration finds what it rendered.
 * `isHydrating`: the tree takes over (or is) a prerendered page; see HydrationProvider.
 */
export function AppProviders(props: {
  locale: Locale
  messages: AppMessages
  isHydrating: boolean
  children: ReactNode
}) {
  return (
    <StrictMode>
      <I18nProvider locale={props.locale} messages={props.messages}>
        <SessionProvider>
          <HydrationProvider isHydrating={props.isHydrating}>{props.children}</HydrationProvider>
        </SessionProvider>
      </I18nProvider>
    </StrictMode>
  )
}
