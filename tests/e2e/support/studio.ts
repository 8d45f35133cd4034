import { type APIResponse, type Browser, type BrowserContext, expect, type Page } from '@playwright/test'
import type { AssetResponse, AssetView } from '#shared/contracts/assets.ts'
import type { SessionResponse } from '#shared/contracts/auth.ts'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import type { GenerationStatus, GenerationView } from '#shared/contracts/generations.ts'
import { authScreens, expectPath } from '../accounts-support.ts'
import { uniqueClientIp } from './clients.ts'
import { intlTag, type Lang } from './i18n.ts'
import type { TestFile } from './images.ts'
import { openPublicPage } from './public-page.ts'

// Signed-in studio pages for specs on either app (servers.ts), and the API steps specs take
// through the page's request context, which shares the page's cookies and client address.

/** The codes playwright.config.ts gives both apps in ACCESS_CODES. */
export const accessCodes = ['VITRIN', 'E2EBTA', 'TRIAL1'] as const
export type AccessCode = (typeof accessCodes)[number]

export type BetaOptions = {
  /** Which known code to redeem (default VITRIN). */
  code?: AccessCode
  /** Type the code into /access (and land on `next`) instead of redeeming it through the API. */
  throughForm?: boolean
  /** With `throughForm`: where the form sends the page afterwards (default /app). */
  next?: string
  /** With `throughForm`: the language of the access page it opens (`/tr/access` for Turkish) and of its labels (default en). */
  lang?: Lang
}

/** Fails with the answer's status and body unless it is a 2xx. */
export async function expectOk(response: APIResponse, what: string): Promise<void> {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`)
}

/**
 * Makes this page a new beta user (a 30-day Growth trial, no email) on the page's baseURL,
 * with a client address of its own for the whole context. The page stays where it is unless
 * `throughForm`.
 */
export async function enterAsBeta(page: Page, options: BetaOptions = {}): Promise<void> {
  const code = options.code ?? 'VITRIN'
  // On the context, so page.request (which the API helpers use) sends it too.
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': uniqueClientIp() })
  if (options.throughForm) {
    const next = options.next ?? '/app'
    const lang = options.lang ?? 'en'
    const { access } = authScreens(page, lang)
    await openPublicPage(page, lang, `/access?${new URLSearchParams({ next })}`)
    await access.code.fill(code)
    await access.submit.click()
    await expectPath(page, next)
  } else {
    await expectOk(await page.request.post('/api/access', { data: { code } }), 'access code')
  }
  const session = (await (await page.request.get('/api/session')).json()) as SessionResponse
  expect(session.user?.isBeta, 'signed in as a beta user').toBe(true)
}

/**
 * A new browser context on `baseURL` (e.g. studioProvidersBaseURL) with a signed-in beta
 * page in it. Close the context at the end of the test.
 */
export async function openBetaPage(
  browser: Browser,
  baseURL: string,
  options: BetaOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale: intlTag[options.lang ?? 'en'] })
  const page = await context.newPage()
  await enterAsBeta(page, options)
  return { context, page }
}

export async function readUsage(page: Page): Promise<UsageResponse> {
  const response = await page.request.get('/api/usage')
  await expectOk(response, 'usage')
  return (await response.json()) as UsageResponse
}

/**
 * Puts the signed-in user's image usage for this month at the plan's quota (test hook), so
 * the next image generation is refused; video usage stays as it was. Returns the usage after.
 */
export async function exhaustImageQuota(page: Page): Promise<UsageResponse> {
  const before = await readUsage(page)
  await setImageUsage(page, before.images.quota, before.videos.used)
  const after = await readUsage(page)
  expect(after.images.used).toBe(after.images.quota)
  return after
}

/** Sets this month's image (and video) usage of the signed-in user (test hook). */
export async function setImageUsage(page: Page, imagesUsed: number, videosUsed?: number): Promise<void> {
  const videos = videosUsed ?? (await readUsage(page)).videos.used
  await expectOk(
    await page.request.put('/api/test/usage', { data: { imagesUsed, videosUsed: videos } }),
    'set usage',
  )
}

/** Uploads a file to POST /api/assets as the page's user and returns the stored asset. */
export async function uploadAsset(page: Page, file: TestFile): Promise<AssetView> {
  const response = await page.request.post('/api/assets', { multipart: { file } })
  await expectOk(response, 'upload')
  return ((await response.json()) as AssetResponse).asset
}

/** POST /api/generations (answers 202 with the queued generation). */
export async function createGeneration(page: Page, body: Record<string, unknown>): Promise<GenerationView> {
  const response = await page.request.post('/api/generations', { data: body })
  await expectOk(response, 'create generation')
  return ((await response.json()) as { generation: GenerationView }).generation
}

export async function readGeneration(page: Page, id: string): Promise<GenerationView> {
  const response = await page.request.get(`/api/generations/${id}`)
  await expectOk(response, 'generation')
  return ((await response.json()) as { generation: GenerationView }).generation
}

/** Asks (never sleeps) until the generation is in one of `statuses`, and returns it then. */
export async function waitForGeneration(
  page: Page,
  id: string,
  statuses: GenerationStatus[] = ['succeeded', 'failed', 'canceled'],
  timeout = 20_000,
): Promise<GenerationView> {
  let latest: GenerationView | undefined
  await expect
    .poll(
      async () => {
        latest = await readGeneration(page, id)
        return latest.status
      },
      { timeout, intervals: [250, 500, 1000], message: `generation ${id} to reach ${statuses.join('|')}` },
    )
    .toMatch(new RegExp(`^(${statuses.join('|')})$`))
  return latest as GenerationView
}
