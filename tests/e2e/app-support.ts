import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test'
import type { BillingResponse, UsageResponse } from '#shared/contracts/billing.ts'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import enApp from '#shared/i18n/locales/en/app.json' with { type: 'json' }
import enBilling from '#shared/i18n/locales/en/billing.json' with { type: 'json' }
import enCommon from '#shared/i18n/locales/en/common.json' with { type: 'json' }
import enErrors from '#shared/i18n/locales/en/errors.json' with { type: 'json' }
import enPublishing from '#shared/i18n/locales/en/publishing.json' with { type: 'json' }
import enSettings from '#shared/i18n/locales/en/settings.json' with { type: 'json' }
import enStudio from '#shared/i18n/locales/en/studio.json' with { type: 'json' }
import trApp from '#shared/i18n/locales/tr/app.json' with { type: 'json' }
import trBilling from '#shared/i18n/locales/tr/billing.json' with { type: 'json' }
import trCommon from '#shared/i18n/locales/tr/common.json' with { type: 'json' }
import trErrors from '#shared/i18n/locales/tr/errors.json' with { type: 'json' }
import trPublishing from '#shared/i18n/locales/tr/publishing.json' with { type: 'json' }
import trSettings from '#shared/i18n/locales/tr/settings.json' with { type: 'json' }
import trStudio from '#shared/i18n/locales/tr/studio.json' with { type: 'json' }
import type { PlanId } from '#shared/plans.ts'
import { uniqueClientIp, uniqueEmail } from './support/clients.ts'
import { intlTag, type Lang } from './support/i18n.ts'

/** The signed-in screens' locale files, as the tests read them: expected text comes from here. */
const messages = {
  en: {
    app: enApp,
    billing: enBilling,
    common: enCommon,
    errors: enErrors,
    publishing: enPublishing,
    settings: enSettings,
    studio: enStudio,
  },
  tr: {
    app: trApp,
    billing: trBilling,
    common: trCommon,
    errors: trErrors,
    publishing: trPublishing,
    settings: trSettings,
    studio: trStudio,
  },
} as const

/** Looks up `app.*`, `billing.*`, `publishing.*`, `settings.*`, `studio.*`, `common.*` or `errors.*` and fills placeholders. */
export function appMsg(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = messages[lang]
  for (const part of key.split('.')) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined
  }
  if (typeof node !== 'string') throw new Error(`no ${lang} message for ${key}`)
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = vars[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? new Intl.NumberFormat(intlTag[lang]).format(value) : value
  })
}

/** "June 3, 2026" / "3 Haziran 2026", as the app writes dates. */
export function formatDateFor(lang: Lang, iso: string): string {
  return new Intl.DateTimeFormat(intlTag[lang], { dateStyle: 'long' }).format(new Date(iso))
}

export type Account = { email: string; password: string }

/** Gives this context a client address of its own (per-client rate limits) before any call. */
export async function actAsNewClient(context: BrowserContext): Promise<string> {
  const ip = uniqueClientIp()
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': ip })
  return ip
}

async function expectOk(
  response: { ok(): boolean; status(): number; text(): Promise<string> },
  what: string,
) {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`)
}

/** Creates an account through the API from the page's context, so the session cookie lands in the browser. */
export async function signUp(page: Page, label = 'user'): Promise<Account> {
  await actAsNewClient(page.context())
  const account = { email: uniqueEmail(label), password: 'first-pass-123' }
  await expectOk(await page.request.post('/api/auth/sign-up', { data: account }), 'sign-up')
  return account
}

/** Signs in through the API in the page's context. */
export async function signIn(page: Page, account: Account): Promise<void> {
  await expectOk(await page.request.post('/api/auth/sign-in', { data: account }), 'sign-in')
}

/** Activates a plan with test billing (no payment). */
export async function choosePlanViaApi(page: Page, planId: PlanId): Promise<BillingResponse> {
  const response = await page.request.post('/api/billing/subscription', { data: { planId } })
  await expectOk(response, 'choose plan')
  return (await response.json()) as BillingResponse
}

/** A new account on a plan. */
export async function signUpWithPlan(page: Page, planId: PlanId, label = 'user'): Promise<Account> {
  const account = await signUp(page, label)
  await choosePlanViaApi(page, planId)
  return account
}

/** A beta account from an access code: no email, a 30-day Growth trial. */
export async function enterWithAccessCode(page: Page): Promise<void> {
  await actAsNewClient(page.context())
  await expectOk(await page.request.post('/api/access', { data: { code: 'VITRIN' } }), 'access code')
}

/** Sets this period's usage of the signed-in user (test hook). */
export async function setUsage(page: Page, imagesUsed: number, videosUsed: number): Promise<void> {
  await expectOk(await page.request.put('/api/test/usage', { data: { imagesUsed, videosUsed } }), 'set usage')
}

export async function readUsage(page: Page): Promise<UsageResponse> {
  const response = await page.request.get('/api/usage')
  await expectOk(response, 'usage')
  return (await response.json()) as UsageResponse
}

export async function readBilling(page: Page): Promise<BillingResponse> {
  const response = await page.request.get('/api/billing')
  await expectOk(response, 'billing')
  return (await response.json()) as BillingResponse
}

export async function readSettings(page: Page): Promise<SettingsResponse> {
  const response = await page.request.get('/api/settings')
  await expectOk(response, 'settings')
  return (await response.json()) as SettingsResponse
}

/** A second, separate browser (own cookies and storage) in the same language, as its own client. */
export async function newBrowserContext(browser: Browser, lang: Lang): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: intlTag[lang] })
  await actAsNewClient(context)
  return context
}

/** Waits for the dashboard to have loaded (past the skeleton). */
export async function expectDashboardLoaded(page: Page, lang: Lang): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1, name: appMsg(lang, 'app.dashboard.title') }),
  ).toBeVisible()
}
