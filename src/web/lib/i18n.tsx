import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react'
import { defaultLocale, isLocale, type Locale } from '#shared/i18n/locales.ts'
import type { AppMessages, TKey } from '#shared/i18n/messages.ts'
import {
  formatNumber,
  formatUsd,
  type Messages,
  type MessageVars,
  translate,
} from '#shared/i18n/translate.ts'
import { languageCookie } from '#shared/public-pages.ts'

/** localStorage key holding the chosen language; `public/lang-init.js` reads the same key. */
export const languageStorageKey = 'vitrin.lang'

/**
 * Remembers the language a visitor reads Vitrin in: in localStorage for the app (lang-init.js
 * reads it, and so does an English public page before it paints) and in a cookie the server
 * reads to send an English address to its `/tr/…` page on a later visit.
 */
export function rememberLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(languageStorageKey, locale)
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this page only.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers sellers still use
  document.cookie = `${languageCookie}=${locale}; path=/; max-age=31536000; samesite=lax`
}

/** Loads one language's messages; each language is its own chunk, so only one is downloaded. */
export async function loadMessages(locale: Locale): Promise<AppMessages> {
  if (locale === 'tr') return (await import('#shared/i18n/locales/tr/index.ts')).trMessages
  return (await import('#shared/i18n/locales/en/index.ts')).enMessages
}

/**
 * The few namespaces the landing page needs, in a small chunk, so the first render does not wait
 * for every screen's text. The rest comes with `ensureAllMessages`, which every other page's
 * chunk waits for before it renders.
 */
export async function loadBaseMessages(locale: Locale): Promise<AppMessages> {
  const base =
    locale === 'tr'
      ? (await import('#shared/i18n/locales/tr/base.ts')).trBaseMessages
      : (await import('#shared/i18n/locales/en/base.ts')).enBaseMessages
  // Partial until ensureAllMessages completes it; only landing-page keys are read before then.
  return base as unknown as AppMessages
}

const fullCatalogues = new Map<Locale, Promise<AppMessages>>()
const loadedCatalogues = new Map<Locale, AppMessages>()
const fullListeners = new Set<(locale: Locale, messages: AppMessages) => void>()

/** Loads (once) every namespace of a language and hands it to the provider. */
export function ensureAllMessages(locale: Locale = detectInitialLocale()): Promise<AppMessages> {
  let pending = fullCatalogues.get(locale)
  if (!pending) {
    pending = loadMessages(locale).then((messages) => {
      loadedCatalogues.set(locale, messages)
      for (const listener of fullListeners) listener(locale, messages)
      return messages
    })
    fullCatalogues.set(locale, pending)
  }
  return pending
}

/** A language's full messages, if ensureAllMessages has loaded them. */
export function loadedMessages(locale: Locale): AppMessages | undefined {
  return loadedCatalogues.get(locale)
}

/** The language to start with: `<html lang>` as set by lang-init.js before first paint. */
export function detectInitialLocale(): Locale {
  const fromDocument = document.documentElement.lang
  return isLocale(fromDocument) ? fromDocument : defaultLocale
}

/**
 * The message groups that have a `<group>.<Suffix>` key, for a component that reads its words
 * from one group (`GroupWith<'title'> & GroupWith<'submit'>`: groups with both).
 */
export type GroupWith<Suffix extends string, Key = TKey> = Key extends `${infer Group}.${Suffix}`
  ? Group
  : never

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

  // When every namespace of the current language arrives, adopt it before any page that needs
  // it renders (pages await the same promise after this listener was added).
  // biome-ignore lint/correctness/useExhaustiveDependencies: registered once; later locales come through setLocale
  useLayoutEffect(() => {
    // Unchanged text keeps the same state, so a page hydrated with the full text is not re-rendered.
    const listener = (locale: Locale, messages: AppMessages) =>
      setState((current) =>
        current.locale === locale && current.messages !== messages ? { locale, messages } : current,
      )
    fullListeners.add(listener)
    // It may have arrived before this provider was mounted.
    const loaded = loadedCatalogues.get(props.locale)
    if (loaded) listener(props.locale, loaded)
    return () => {
      fullListeners.delete(listener)
    }
  }, [])

  const setLocale = useCallback(async (locale: Locale) => {
    const messages = await ensureAllMessages(locale)
    rememberLocale(locale)
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
