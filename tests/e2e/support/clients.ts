import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { APIRequestContext, Page } from '@playwright/test'
import { test } from '@playwright/test'

let clientCounter = 0

/**
 * A client address no other test uses, so the per-client contact rate limit never couples tests.
 * The worker index keeps parallel workers apart; the counter keeps tests in one worker apart.
 */
export function uniqueClientIp(): string {
  clientCounter += 1
  const worker = test.info().workerIndex % 250
  return `10.${worker + 1}.${Math.floor(clientCounter / 250)}.${(clientCounter % 250) + 1}`
}

/** Makes every request of this page come from its own client address (the server trusts X-Forwarded-For). */
export async function actAsNewClient(page: Page): Promise<string> {
  const ip = uniqueClientIp()
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip })
  return ip
}

export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`
}

export type StoredContactMessage = {
  id: string
  name: string
  email: string
  company: string
  phone: string
  inquiryType: string
  message: string
  locale: string
  clientIp: string | null
  createdAt: string
}

export type StoredEmail = {
  id: string
  toAddress: string
  replyTo: string | null
  subject: string
  textBody: string
  kind: string
  status: string
}

/** The contact messages the server stored, newest first (test hook; ENABLE_TEST_HOOKS). */
export async function storedContactMessages(
  request: APIRequestContext,
  query: { email?: string } = {},
): Promise<StoredContactMessage[]> {
  const params = new URLSearchParams(query.email ? { email: query.email } : {})
  const response = await request.get(`/api/test/contact-messages?${params}`)
  if (!response.ok()) throw new Error(`test hook answered ${response.status()}`)
  return ((await response.json()) as { messages: StoredContactMessage[] }).messages
}

/** The emails in the outbox for one address, newest first (test hook). */
export async function outboxFor(request: APIRequestContext, to: string): Promise<StoredEmail[]> {
  const response = await request.get(`/api/test/outbox?${new URLSearchParams({ to })}`)
  if (!response.ok()) throw new Error(`test hook answered ${response.status()}`)
  return ((await response.json()) as { emails: StoredEmail[] }).emails
}

/** Where screenshots for people to look at are saved (not compared by any test). */
export function screenshotPath(name: string): string {
  return fileURLToPath(new URL(`../../../.test-output/screenshots/${name}.png`, import.meta.url))
}
