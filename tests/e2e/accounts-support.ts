import { randomInt, randomUUID } from 'node:crypto'
import { type APIRequestContext, expect, type Page } from '@playwright/test'
import enAuth from '#shared/i18n/locales/en/auth.json' with { type: 'json' }
import enCommon from '#shared/i18n/locales/en/common.json' with { type: 'json' }
import enErrors from '#shared/i18n/locales/en/errors.json' with { type: 'json' }
import trAuth from '#shared/i18n/locales/tr/auth.json' with { type: 'json' }
import trCommon from '#shared/i18n/locales/tr/common.json' with { type: 'json' }
import trErrors from '#shared/i18n/locales/tr/errors.json' with { type: 'json' }
import { waitForHydration } from './support/public-page.ts'

export type Lang = 'en' | 'tr'
export const langs: readonly Lang[] = ['en', 'tr']
export const browserLocale: Record<Lang, string> = { en: 'en-US', tr: 'tr-TR' }

// The expected text comes from the locale files, not from the app.
const messages = {
  en: { auth: enAuth, common: enCommon, errors: enErrors },
  tr: { auth: trAuth, common: trCommon, errors: trErrors },
} as const

/** A message of the auth, common or errors namespace with `{{name}}` filled; throws for a missing key. */
export function text(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = messages[lang]
  for (const part of key.split('.')) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined
  }
  if (typeof node !== 'string') throw new Error(`no ${lang} message for ${key}`)
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => String(vars[name] ?? whole))
}

/**
 * A client address no other test uses (random, in a block the shared support helpers do not
 * use), so per-client rate limits never couple tests.
 */
export function newClientIp(): string {
  return `10.${randomInt(128, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`
}

/** Makes every request of this page's context come from a fresh client address. */
export async function actAsNewClient(page: Page): Promise<string> {
  const ip = newClientIp()
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': ip })
  return ip
}

export function newEmail(label: string): string {
  return `${label}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`
}

/** Creates an account straight through the API, from its own client address (no browser session). */
export async function createAccount(request: APIRequestContext, email: string, password: string) {
  const response = await request.post('/api/auth/sign-up', {
    data: { email, password },
    headers: { 'x-forwarded-for': newClientIp() },
  })
  expect(response.status(), await response.text()).toBe(201)
}

type OutboxEmail = { toAddress: string; subject: string; textBody: string; kind: string; status: string }

/** The emails in the outbox for one address, newest first (test hook). */
export async function outboxFor(request: APIRequestContext, to: string): Promise<OutboxEmail[]> {
  const response = await request.get(`/api/test/outbox?${new URLSearchParams({ to })}`)
  expect(response.ok(), `outbox hook answered ${response.status()}`).toBe(true)
  return ((await response.json()) as { emails: OutboxEmail[] }).emails
}

/** The link in the newest password-reset email to this address, once it is there. */
export async function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let link = ''
  await expect
    .poll(async () => {
      const reset = (await outboxFor(request, email)).find((mail) => mail.kind === 'password_reset')
      link = reset?.textBody.match(/https?:\/\/\S+\/auth\/reset-password\/confirm\?token=\S+/)?.[0] ?? ''
      return link
    })
    .not.toBe('')
  return link
}

/** The controls of the auth screens, found as a person finds them: by their labels and names. */
export function authScreens(page: Page, lang: Lang) {
  const t = (key: string, vars?: Record<string, string | number>) => text(lang, key, vars)
  const heading = (key: string) => page.getByRole('heading', { level: 1, name: t(key) })
  const form = (titleKey: string) => page.getByRole('form', { name: t(titleKey) })
  const label = (key: string) => page.getByLabel(t(key), { exact: true })
  return {
    t,
    heading,
    alert: page.getByRole('main').getByRole('alert'),
    signIn: {
      form: form('auth.signIn.title'),
      email: label('auth.fields.email'),
      password: label('auth.fields.password'),
      submit: page.getByRole('button', { name: t('auth.signIn.submit'), exact: true }),
    },
    signUp: {
      form: form('auth.signUp.title'),
      email: label('auth.fields.email'),
      password: label('auth.fields.password'),
      confirm: label('auth.fields.confirmPassword'),
      submit: page.getByRole('button', { name: t('auth.signUp.submit'), exact: true }),
    },
    resetRequest: {
      email: label('auth.fields.email'),
      submit: page.getByRole('button', { name: t('auth.resetRequest.submit'), exact: true }),
    },
    resetConfirm: {
      password: label('auth.fields.newPassword'),
      confirm: label('auth.fields.confirmNewPassword'),
      submit: page.getByRole('button', { name: t('auth.resetConfirm.submit'), exact: true }),
    },
    access: {
      code: label('auth.access.codeLabel'),
      submit: page.getByRole('button', { name: t('auth.access.submit'), exact: true }),
    },
    header: {
      dashboard: page.getByRole('banner').getByRole('link', { name: t('common.nav.dashboard'), exact: true }),
      accountMenu: page.getByRole('banner').getByRole('button', { name: t('common.nav.userMenu') }),
      signOut: page.getByRole('banner').getByRole('button', { name: t('common.nav.signOut') }),
      accessApp: page.getByRole('banner').getByRole('link', { name: t('common.nav.accessApp') }),
    },
  }
}

/** Signs in through the form; leaves the page wherever the app sends it. */
export async function signInThroughForm(page: Page, email: string, password: string, path = '/auth/signin') {
  const screens = authScreens(page, 'en')
  await page.goto(path)
  await waitForHydration(page)
  await screens.signIn.email.fill(email)
  await screens.signIn.password.fill(password)
  await screens.signIn.submit.click()
}

/** Waits until the page shows this path with exactly these query parameters (none by default). */
export async function expectPath(page: Page, pathname: string, query: Record<string, string> = {}) {
  const expected = JSON.stringify(Object.entries(query).sort())
  await expect(page).toHaveURL(
    (url) => url.pathname === pathname && JSON.stringify([...url.searchParams].sort()) === expected,
  )
}

type TimingWindow = { __shownAt?: number; __leftAt?: number }

/**
 * Notes, inside the page, when an h1 with this text appears and when the app next leaves the
 * path it is on (react-router changes the URL through history.pushState/replaceState).
 */
export async function watchSuccessScreen(page: Page, headingText: string) {
  await page.evaluate((text) => {
    const w = window as unknown as TimingWindow
    const startPath = location.pathname
    new MutationObserver(() => {
      if (w.__shownAt === undefined && document.querySelector('h1')?.textContent === text)
        w.__shownAt = performance.now()
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history)
      history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
        const path = url === undefined || url === null ? startPath : new URL(url, location.href).pathname
        if (w.__leftAt === undefined && path !== startPath) w.__leftAt = performance.now()
        original(data, unused, url)
      }
    }
  }, headingText)
}

/** When the watched heading appeared and when the page left, in page milliseconds. */
export async function successScreenTiming(page: Page): Promise<{ shownAt: number; leftAt: number }> {
  const timing = await page.evaluate(() => {
    const w = window as unknown as TimingWindow
    return { shownAt: w.__shownAt, leftAt: w.__leftAt }
  })
  if (timing.shownAt === undefined || timing.leftAt === undefined)
    throw new Error(`success screen timing not recorded: ${JSON.stringify(timing)}`)
  return { shownAt: timing.shownAt, leftAt: timing.leftAt }
}
