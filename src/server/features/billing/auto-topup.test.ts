import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  autoTopupCharges,
  billingCustomers,
  creditBalances,
  creditGrants,
  emailOutbox,
  generations,
  usageMonthly,
} from '#server/db/schema/index.ts'
import { grantCredits } from '#server/features/quota/credits.service.ts'
import { quotaHoldFor } from '#server/features/quota/quota.service.ts'
import { setPeriodUsage } from '#server/features/quota/usage.service.ts'
import type { BillingRedirectResponse } from '#shared/contracts/billing.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { getPlan } from '#shared/plans.ts'
import { type StripeFake, startStripeFake } from '#tests/fakes/stripe-server.ts'
import { signedInClient, uploadPhoto, userIdOf } from '#tests/support/generation-client.ts'
import { resetStripeAccount, stripeBillingEnv } from '#tests/support/stripe-app.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'
import { staleClaimMs, topUpForShortage } from './auto-topup.service.ts'
import { activatePlan } from './subscription.service.ts'

// Auto top-up through the app's real generation route, the real SDK against the fake Stripe
// server (tests/fakes/stripe-server.ts): one off-session charge per shortage however many
// generations hit it, never over the monthly cap, and a failed charge refused, emailed, not retried.

let fake: StripeFake
let server: TestServer

const db = () => server.database.db

/**
 * A Starter user (manual plan) who bought one image pack on the hosted checkout (their card is
 * saved), then used up the plan's images and the pack's credits, with auto top-up as given.
 */
async function userAtShortage(options: { autoTopup: boolean; cap?: number }) {
  const client = await signedInClient(server, null)
  const userId = await userIdOf(client)
  const started = await client.request('/api/billing/top-up', { json: { packId: 'images_100' } })
  const { url } = (await started.json()) as BillingRedirectResponse
  await fake.completeCheckout(url.split('/').pop() as string)
  await fake.idle()
  const now = new Date()
  await activatePlan(db(), { userId, planId: 'starter', provider: 'manual', now })
  await setPeriodUsage(db(), userId, now, { imagesUsed: getPlan('starter').imageQuota, videosUsed: 0 })
  await db().update(creditBalances).set({ images: 0 }).where(eq(creditBalances.userId, userId))
  if (options.cap !== undefined) {
    await db()
      .update(billingCustomers)
      .set({ autoTopupMonthlyCap: options.cap })
      .where(eq(billingCustomers.userId, userId))
  }
  const saved = await client.request('/api/settings', {
    method: 'PATCH',
    json: { autoTopupEnabled: options.autoTopup },
  })
  expect(saved.status).toBe(200)
  const photo = await uploadPhoto(client)
  const customerId = String(fake.lastOf('cus_')?.id)
  return { client, userId, photo, customerId }
}

function generate(client: TestClient, photo: string) {
  return client.request('/api/generations', {
    json: { mode: 'image', imageAssetId: photo, prompt: 'on a marble table' },
  })
}

/** The key of the user's current image shortage (auto-topup.service.ts, claimShortage). */
async function shortageKeyOf(userId: string): Promise<string> {
  const [usage] = await db().select().from(usageMonthly).where(eq(usageMonthly.userId, userId))
  const grants = await db().select().from(creditGrants).where(eq(creditGrants.userId, userId))
  return `topup:${userId}:images:${usage?.period}:${grants.length}`
}

const offSessionCharges = () =>
  fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')

async function charges(userId: string) {
  return db().select().from(autoTopupCharges).where(eq(autoTopupCharges.userId, userId))
}

async function emails(kind: string) {
  return db().select().from(emailOutbox).where(eq(emailOutbox.kind, kind))
}

async function autoTopupGrants(userId: string) {
  return db()
    .select()
    .from(creditGrants)
    .where(and(eq(creditGrants.userId, userId), eq(creditGrants.origin, 'auto_topup')))
}

async function codeOf(response: Response): Promise<string> {
  return ((await response.json()) as ErrorBody).error.code
}

describe('auto top-up', () => {
  beforeAll(async () => {
    fake = await startStripeFake()
    server = await startTestServer({
      ...stripeBillingEnv(fake),
      GENERATIONS_PER_MINUTE: '10000',
      GENERATIONS_PER_MINUTE_PER_CLIENT: '10000',
      MAX_QUEUED_PER_USER: '1000',
    })
  })
  beforeEach(async () => {
    await resetStripeAccount(fake, server)
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('charges one pack for 20 generations hitting an empty quota at once, and accepts all 20', async () => {
    const { client, userId, photo } = await userAtShortage({ autoTopup: true })
    const answers = await Promise.all(Array.from({ length: 20 }, () => generate(client, photo)))
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 202))

    expect(offSessionCharges()).toHaveLength(1)
    const [charge, ...more] = await charges(userId)
    expect(more).toHaveLength(0)
    expect(charge).toMatchObject({ status: 'succeeded', packId: 'images_100', errorCode: null })
    expect(offSessionCharges()[0]?.idempotencyKey).toBe(charge?.shortageKey)
    // Its payment_intent.succeeded webhook credits the same payment: nothing more.
    await fake.idle()
    const grants = await autoTopupGrants(userId)
    expect(grants).toHaveLength(1)
    expect(grants[0]?.paymentRef).toBe(charge?.paymentRef)
    const [balance] = await db().select().from(creditBalances).where(eq(creditBalances.userId, userId))
    expect(balance?.images).toBe(100 - 20)
    const queued = await db().select().from(generations).where(eq(generations.userId, userId))
    expect(queued).toHaveLength(20)
    const done = await emails('auto_topup_done')
    expect(done).toHaveLength(1)
    expect(done[0]?.textBody).toContain('100 images')
  })

  it('answers the generation without waiting on the mail server; the email follows', async () => {
    const { client, userId, photo } = await userAtShortage({ autoTopup: true })
    const release = server.transport.holdSends()
    try {
      const answer = await generate(client, photo)
      expect(answer.status).toBe(202)
      const [done] = await emails('auto_topup_done')
      expect(done?.status).toBe('sending')
      expect(server.transport.sent.filter((email) => email.to === done?.toAddress)).toHaveLength(0)
    } finally {
      await release()
    }
    const [done] = await emails('auto_topup_done')
    const sent = server.transport.sent.filter((email) => email.to === done?.toAddress)
    expect(sent.map((email) => email.subject)).toEqual([done?.subject])
    expect((await charges(userId))[0]?.status).toBe('succeeded')
  })

  it('never charges past the monthly cap: two packs needed, a cap of 1, one charge', async () => {
    const { client, userId, photo } = await userAtShortage({ autoTopup: true, cap: 1 })
    const answers = await Promise.all(Array.from({ length: 110 }, () => generate(client, photo)))
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 202)).toHaveLength(100)
    expect(statuses.filter((s) => s === 402)).toHaveLength(10)
    const refused = answers.filter((a) => a.status === 402)
    // Said as the cap, so the user knows where to raise it.
    expect(new Set(await Promise.all(refused.map(codeOf)))).toEqual(new Set(['AUTO_TOPUP_CAP_REACHED']))
    expect(offSessionCharges()).toHaveLength(1)
    expect(await charges(userId)).toHaveLength(1)
    await fake.idle()
    expect(await autoTopupGrants(userId)).toHaveLength(1)
  })

  for (const outcome of ['succeeded', 'failed'] as const) {
    it(`waits for the charge another server is making for the same shortage, and takes its outcome (${outcome})`, async () => {
      const { userId } = await userAtShortage({ autoTopup: true })
      const [charge] = await db()
        .insert(autoTopupCharges)
        .values({
          userId,
          packId: 'images_100',
          shortageKey: await shortageKeyOf(userId),
          month: new Date().toISOString().slice(0, 7),
          status: 'pending',
        })
        .returning()
      // This server's top-up, held at its first pause between looks at the other's charge.
      let isWaiting = () => {}
      const waiting = new Promise<void>((resolve) => (isWaiting = resolve))
      let goOn = () => {}
      const wentOn = new Promise<void>((resolve) => (goOn = resolve))
      const now = () => new Date()
      const toppedUp = topUpForShortage(
        {
          db: db(),
          billing: server.deps.billing,
          publicUrl: server.url,
          now,
          pollPause: () => {
            isWaiting()
            return wentOn
          },
        },
        { hold: await quotaHoldFor(db(), userId, 'images', now()), isEnabled: true },
      )
      toppedUp.catch(() => undefined)
      await waiting
      // The other server's outcome, as its settle writes it.
      await db().transaction(async (tx) => {
        if (outcome === 'succeeded') {
          await grantCredits(tx, {
            userId,
            packId: 'images_100',
            paymentRef: 'pi_other_server',
            origin: 'auto_topup',
          })
        }
        await tx
          .update(autoTopupCharges)
          .set({
            status: outcome,
            paymentRef: 'pi_other_server',
            errorCode: outcome === 'failed' ? 'PAYMENT_DECLINED' : null,
            settledAt: new Date(),
          })
          .where(eq(autoTopupCharges.id, String(charge?.id)))
      })
      goOn()
      if (outcome === 'succeeded') await expect(toppedUp).resolves.toBe(true)
      else await expect(toppedUp).rejects.toMatchObject({ code: 'AUTO_TOPUP_FAILED' })
      // This server charged nothing: the shortage was the other's to charge.
      expect(offSessionCharges()).toHaveLength(0)
      expect(await charges(userId)).toHaveLength(1)
    })
  }

  it('takes over a charge left pending by a request that died, with the same idempotency key', async () => {
    const { client, userId, photo } = await userAtShortage({ autoTopup: true })
    const shortageKey = await shortageKeyOf(userId)
    const claimedAt = new Date(Date.now() - staleClaimMs - 1000)
    await db()
      .insert(autoTopupCharges)
      .values({
        userId,
        packId: 'images_100',
        shortageKey,
        month: new Date().toISOString().slice(0, 7),
        status: 'pending',
        createdAt: claimedAt,
      })

    const answer = await generate(client, photo)
    expect(answer.status).toBe(202)
    expect(offSessionCharges()).toHaveLength(1)
    expect(offSessionCharges()[0]?.idempotencyKey).toBe(shortageKey)
    const [charge, ...more] = await charges(userId)
    expect(more).toHaveLength(0)
    expect(charge).toMatchObject({ shortageKey, status: 'succeeded' })
    expect(charge?.createdAt.getTime()).toBeGreaterThan(claimedAt.getTime())
  })

  for (const outcome of ['card_declined', 'authentication_required'] as const) {
    it(`refuses with AUTO_TOPUP_FAILED when the card says ${outcome}, emails once, and does not charge again`, async () => {
      const { client, userId, photo, customerId } = await userAtShortage({ autoTopup: true })
      fake.setCard(customerId, outcome)

      const [first, second] = await Promise.all([generate(client, photo), generate(client, photo)])
      for (const answer of [first, second]) {
        expect(answer.status).toBe(402)
        expect(await codeOf(answer as Response)).toBe('AUTO_TOPUP_FAILED')
      }
      expect(offSessionCharges()).toHaveLength(1)
      const [charge, ...more] = await charges(userId)
      expect(more).toHaveLength(0)
      expect(charge).toMatchObject({
        status: 'failed',
        errorCode: outcome === 'card_declined' ? 'PAYMENT_DECLINED' : 'PAYMENT_AUTHENTICATION_REQUIRED',
      })
      const failed = await emails('auto_topup_failed')
      expect(failed).toHaveLength(1)
      expect(failed[0]?.textBody).toContain('/billing')

      // Asked again for the same shortage (even with the card fixed): refused, not charged again.
      fake.setCard(customerId, 'succeeded')
      const again = await generate(client, photo)
      expect(again.status).toBe(402)
      expect(await codeOf(again)).toBe('AUTO_TOPUP_FAILED')
      expect(offSessionCharges()).toHaveLength(1)
      expect(await emails('auto_topup_failed')).toHaveLength(1)
      await fake.idle()
      expect(await autoTopupGrants(userId)).toHaveLength(0)
      expect(await db().select().from(generations).where(eq(generations.userId, userId))).toHaveLength(0)
    })
  }

  it('with auto top-up off, refuses for quota and charges nothing', async () => {
    const { client, userId, photo } = await userAtShortage({ autoTopup: false })
    const answer = await generate(client, photo)
    expect(answer.status).toBe(403)
    expect(await codeOf(answer)).toBe('QUOTA_EXCEEDED_IMAGES')
    expect(offSessionCharges()).toHaveLength(0)
    expect(await charges(userId)).toHaveLength(0)
  })

  it('emails a cancel at the period end and a failed renewal once each, however often Stripe delivers', async () => {
    const client = await signedInClient(server, null)
    const started = await client.request('/api/billing/checkout', { json: { planId: 'growth' } })
    const { url } = (await started.json()) as BillingRedirectResponse
    const session = await fake.completeCheckout(url.split('/').pop() as string)
    const subscriptionId = String(session.subscription)

    expect((await client.request('/api/billing/subscription', { method: 'DELETE' })).status).toBe(200)
    await fake.idle()
    for (const event of fake.events.filter((e) => e.type === 'customer.subscription.updated')) {
      await fake.redeliver(event.id)
    }
    const ending = await emails('subscription_ending')
    expect(ending).toHaveLength(1)
    expect(ending[0]?.textBody).toContain('Growth')

    const resumed = await client.request('/api/billing/subscription/resume', { method: 'POST' })
    expect(resumed.status).toBe(200)
    await fake.renewSubscription(subscriptionId, { fail: true })
    await fake.idle()
    for (const event of fake.events.filter((e) => e.type === 'invoice.payment_failed')) {
      await fake.redeliver(event.id)
    }
    const failed = await emails('billing_payment_failed')
    expect(failed).toHaveLength(1)
    // Written from a webhook, where the user's language is unknown: both languages.
    expect(failed[0]?.subject).toContain(' / ')
    expect(failed[0]?.textBody).toContain('/billing')
  })

  it('writes webhook emails in the language the user last used the app in; a 3-D Secure renewal sends its invoice page', async () => {
    const client = await signedInClient(server, null)
    const inTurkish = { headers: { 'x-vitrin-locale': 'tr' } }
    const started = await client.request('/api/billing/checkout', {
      json: { planId: 'growth' },
      ...inTurkish,
    })
    const { url } = (await started.json()) as BillingRedirectResponse
    const session = await fake.completeCheckout(url.split('/').pop() as string)
    const subscriptionId = String(session.subscription)

    await fake.renewSubscription(subscriptionId, { fail: true })
    await fake.idle()
    const failed = await emails('billing_payment_failed')
    expect(failed.map((email) => email.subject)).toEqual(['Vitrin ödemeniz gerçekleşmedi'])
    expect(failed[0]?.textBody).toContain('Growth')

    // Back in English, the card now wants the bank's confirmation at the next renewal.
    expect((await client.request('/api/usage', { headers: { 'x-vitrin-locale': 'en' } })).status).toBe(200)
    fake.setCard(String(session.customer), 'authentication_required')
    await fake.renewSubscription(subscriptionId)
    await fake.idle()
    const actionEvents = fake.events.filter((e) => e.type === 'invoice.payment_action_required')
    expect(actionEvents).toHaveLength(1)
    await fake.redeliver(actionEvents[0]?.id as string)
    const confirm = await emails('billing_action_required')
    expect(confirm.map((email) => email.subject)).toEqual(['Confirm your Vitrin payment with your bank'])
    const invoiceUrl = /^https?:\/\/\S+\/invoice\/\S+$/m.exec(confirm[0]?.textBody ?? '')?.[0]
    expect(invoiceUrl).toBeDefined()

    // The invoice page is where the customer confirms; paying it makes the plan current again.
    const page = await fetch(invoiceUrl as string)
    expect(await page.text()).toContain('Confirm and pay')
    const paid = await fetch(`${invoiceUrl}/pay`, { method: 'POST', redirect: 'manual' })
    expect(paid.status).toBe(303)
    await fake.idle()
    const billing = await (await client.request('/api/billing')).json()
    expect(billing.subscription).toMatchObject({ status: 'active' })
  })

  it('keeps the monthly cap in Settings → Billing (1–10, 3 until changed) once a card is saved', async () => {
    const newcomer = await signedInClient(server, null)
    await activatePlan(db(), {
      userId: await userIdOf(newcomer),
      planId: 'starter',
      provider: 'manual',
      now: new Date(),
    })
    expect(await (await newcomer.request('/api/settings')).json()).toMatchObject({
      autoTopupMonthlyCap: null,
    })
    const noCard = await newcomer.request('/api/settings', {
      method: 'PATCH',
      json: { autoTopupMonthlyCap: 2 },
    })
    expect(noCard.status).toBe(400)

    const { client } = await userAtShortage({ autoTopup: true })
    expect(await (await client.request('/api/settings')).json()).toMatchObject({
      autoTopupEnabled: true,
      autoTopupMonthlyCap: 3,
    })
    const saved = await client.request('/api/settings', { method: 'PATCH', json: { autoTopupMonthlyCap: 7 } })
    expect(await saved.json()).toMatchObject({ autoTopupEnabled: true, autoTopupMonthlyCap: 7 })
    for (const cap of [0, 11, 2.5]) {
      const refused = await client.request('/api/settings', {
        method: 'PATCH',
        json: { autoTopupMonthlyCap: cap },
      })
      expect(refused.status).toBe(400)
    }
    expect(await (await client.request('/api/settings')).json()).toMatchObject({ autoTopupMonthlyCap: 7 })
  })

  it('charges again for the next shortage once the first pack is used up', async () => {
    const { client, userId, photo } = await userAtShortage({ autoTopup: true })
    expect((await generate(client, photo)).status).toBe(202)
    await db().update(creditBalances).set({ images: 0 }).where(eq(creditBalances.userId, userId))
    expect((await generate(client, photo)).status).toBe(202)
    const made = await charges(userId)
    expect(made.map((c) => c.status)).toEqual(['succeeded', 'succeeded'])
    expect(new Set(made.map((c) => c.shortageKey)).size).toBe(2)
    expect(offSessionCharges()).toHaveLength(2)
  })
})
