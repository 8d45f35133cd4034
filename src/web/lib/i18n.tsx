import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'
import { defaultLocale, isLocale, type Locale } from '../../shared/i18n/locales.ts'
import type { AppMessages, TKey } from '../../shared/i18n/messages.ts'
import {
  formatNumber,
  formatUsd,
  type Messages,
  type MessageVars,
  translate,
} from '../../shared/i18n/translate.ts'

/** localStorage key holding the chosen language; `public/lang-init.js` reads the same key. */
export const languageStorageKey = 'vitrin.lang'

/** Loads one language's messages; each language is its own chunk, so only one is downloaded. */
export async function loadMessages(locale: Locale): Promise<AppMessages> {
  if (locale === 'tr') return (await import('../../shared/i18n/locales/tr/index.ts')).trMessages
  return (await import('../../shared/i18n/locales/en/index.ts')).enMessages
}

/** The language to start with: `<html lang>` as set by lang-init.js before first paint. */
export function detectInitialLocale(): Locale {
  const fromDocument = document.documentElement.lang
  return isLocale(fromDocument) ? fromDocument : defaultLocale
}

export type I18n = {
  locale: Locale
  t: (key: TKey, vars?: MessageVars) => string
  formatNumber: (value: number) => string
  formatUsd: (value: number) => string
  setLocale: (locale: Locale) => Promise<void>
}

const I18nContext = createContext<I18n | null>(null)

export function I18nProvider(props: { locale: Locale; messages: AppMessages; children: ReactNode }) {
  const [state, setState] = useState({ locale: props.locale, messages: props.messages })

  const setLocale = useCallback(async (locale: Locale) => {
    const messages = await loadMessages(locale)
    try {
      window.localStorage.setItem(languageStorageKey, locale)
    } catch {
      // Storage can be unavailable (private mode); the choice then lasts for this page only.
    }
    document.documentElement.lang = locale
    setState({ locale, messages })
  }, [])

  const value = useMemo<I18n>(() => {
    const { locale, messages } = state
    return {
      locale,
      t: (key, vars) => translate(messages as unknown as Messages, locale, key, vars),
      formatNumber: (n) => formatNumber(locale, n),
      formatUsd: (n) => formatUsd(locale, n),
      setLocale,
    }
  }, [state, setLocale])

  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>
}

export function useI18n(): I18n {
  const value = useContext(I18nContext)
  if (!value) throw new Error('useI18n must be used inside <I18nProvider>')
  return value
}
