import { type RenderResult, render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router'
import type { Locale } from '#shared/i18n/locales.ts'
import { I18nProvider, loadMessages } from '#web/lib/i18n.tsx'

export type RenderWebOptions = {
  /** The language to render in; its real messages are loaded. Default: en. */
  locale?: Locale
  /** The router's starting URL. Default: /. */
  route?: string
}

/**
 * Renders a web component as the app does: inside I18nProvider with the real messages of one
 * language and a MemoryRouter. `<html lang>` is set to the language, as lang-init.js would.
 */
export async function renderWeb(ui: ReactElement, options: RenderWebOptions = {}): Promise<RenderResult> {
  const locale = options.locale ?? 'en'
  const messages = await loadMessages(locale)
  document.documentElement.lang = locale
  return render(
    <I18nProvider locale={locale} messages={messages}>
      <MemoryRouter initialEntries={[options.route ?? '/']}>{ui}</MemoryRouter>
    </I18nProvider>,
  )
}
