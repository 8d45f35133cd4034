import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { creditBalances, creditGrants, quotaReservations, subscriptions } from '#server/db/schema/index.ts'
import { activatePlan, cancelSubscription } from '#server/features/billing/subscription.service.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan } from '#shared/plans.ts'
import { createSubscribedUser, createUser } from '#tests/support/factories.ts'
import { openTestDatabase, testEngine } from '#tests/support/test-database.ts'
import { resetDatabase } from '#tests/support/test-server.ts'
import { getCredits, grantCredits } from './credits.service.ts'
import { commitQuota, releaseQuota, reserveQuota } from './quota.service.ts'
import { getUsage, setPeriodUsage } from './usage.service.ts'

// Credits (bought top-ups) are spent after the period's plan quota, in the reservation's own
// statement, and the quota period is the subscription's billing period.

const now = new Date('2026-11-15T12:00:00Z')
let paymentCounter = 0
const nextPaymentRef = () => `pi_test_${++paymentCounter}`

async function errorCodeOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise
    return null
  } catch (error) {
    if (error instanceof AppError) return error.code
    throw error
  }
}

describe(`credits and billing periods (${testEngine})`, () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  beforeEach(async () => {
    await resetDatabase(database)
  })
  afterAll(async () => {
    await database.close()
  })

  const db = () => database.db
  /** A starter user with `left` images of the plan's quota left and `packs` image packs bought. */
  async function starterUser(left: number, packs: number) {
    const userId = await createSubscribedUser(db(), 'starter', now)
    const quota = getPlan('starter').imageQuota
    await setPeriodUsage(db(), userId, now, { imagesUsed: quota - left, videosUsed: 0 })
    for (let i = 0; i < packs; i++) {
      await grantCredits(db(), {
        userId,
        packId: 'images_100',
        paymentRef: nextPaymentRef(),
        origin: 'checkout',
      })
    }
    return userId
  }
  const sourceOf = async (reservationId: string) => {
    const [row] = await db().select().from(quotaReservations).where(eq(quotaReservations.id, reservationId))
    return row?.source
  }
  /** Sets the image credit balance directly (a test of exact counting needs small numbers). */
  const setImageCredits = (userId: string, images: number) =>
    db().insert(creditBalances).values({ userId, images }).onConflictDoUpdate({
      target: creditBalances.userId,
      set: { images },
    })

  it('grants a pack once per payment reference, and every operator grant', async () => {
    const userId = await createUser(db())
    const paymentRef = nextPaymentRef()
    const grant = (ref: string | null, origin: 'checkout' | 'operator' = 'checkout') =>
      grantCredits(db(), { userId, packId: 'videos_10', paymentRef: ref, origin })
    expect(await grant(paymentRef)).toBe(true)
    expect(await grant(paymentRef)).toBe(false)
    expect(await getCredits(db(), userId)).toEqual({ images: 0, videos: 10 })
    expect(await grant(null, 'operator')).toBe(true)
    expect(await grant(null, 'operator')).toBe(true)
    expect(await getCredits(db(), userId)).toEqual({ images: 0, videos: 30 })
    const grants = await db().select().from(creditGrants).where(eq(creditGrants.userId, userId))
    expect(grants.map((g) => [g.packId, g.resource, g.amount])).toEqual([
      ['videos_10', 'videos', 10],
      ['videos_10', 'videos', 10],
      ['videos_10', 'videos', 10],
    ])
  })

  it('grants once when one payment is delivered 10 times at the same moment', async () => {
    const userId = await createUser(db())
    const paymentRef = nextPaymentRef()
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        grantCredits(db(), { userId, packId: 'images_100', paymentRef, origin: 'checkout' }),
      ),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await getCredits(db(), userId)).toEqual({ images: 100, videos: 0 })
  })

  it('grants inside a caller’s transaction, and nothing when it rolls back', async () => {
    const userId = await createUser(db())
    await expect(
      db().transaction(async (tx) => {
        expect(
          await grantCredits(tx, {
            userId,
            packId: 'images_100',
            paymentRef: 'pi_rolled_back',
            origin: 'checkout',
          }),
        ).toBe(true)
        throw new Error('the webhook failed after the grant')
      }),
    ).rejects.toThrow('the webhook failed')
    expect(await getCredits(db(), userId)).toEqual({ images: 0, videos: 0 })
    // The payment is still unapplied, so its redelivery grants.
    expect(
      await grantCredits(db(), {
        userId,
        packId: 'images_100',
        paymentRef: 'pi_rolled_back',
        origin: 'checkout',
      }),
    ).toBe(true)
  })

  it('uses the plan quota first, then credits, then refuses', async () => {
    const userId = await starterUser(2, 0)
    await setImageCredits(userId, 3)
    const sources: string[] = []
    for (let i = 0; i < 5; i++) {
      const { reservationId } = await reserveQuota(db(), userId, 'images', now)
      sources.push((await sourceOf(reservationId)) ?? '')
    }
    expect(sources).toEqual(['plan', 'plan', 'credit', 'credit', 'credit'])
    expect(await errorCodeOf(reserveQuota(db(), userId, 'images', now))).toBe('QUOTA_EXCEEDED_IMAGES')
    const usage = await getUsage(db(), userId, now)
    expect(usage.images).toEqual({ used: 250, quota: 250 })
    expect(usage.credits).toEqual({ images: 0, videos: 0 })
    // Image credits are no video quota.
    expect(await errorCodeOf(reserveQuota(db(), userId, 'videos', now))).toBeNull()
  })

  it('still needs a plan: credits alone start nothing', async () => {
    const userId = await createUser(db())
    await grantCredits(db(), {
      userId,
      packId: 'images_100',
      paymentRef: nextPaymentRef(),
      origin: 'checkout',
    })
    expect(await errorCodeOf(reserveQuota(db(), userId, 'images', now))).toBe('NO_SUBSCRIPTION')
    expect((await getUsage(db(), userId, now)).credits).toEqual({ images: 100, videos: 0 })
  })

  it('accepts exactly N of 20 concurrent reservations with the quota used up and N credits', async () => {
    const credits = 6
    const userId = await starterUser(0, 0)
    await setImageCredits(userId, credits)
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => reserveQuota(db(), userId, 'images', now)),
    )
    const accepted = results.filter((r) => r.status === 'fulfilled')
    expect(accepted).toHaveLength(credits)
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as AppError).code).toBe('QUOTA_EXCEEDED_IMAGES')
    }
    const [balance] = await db().select().from(creditBalances).where(eq(creditBalances.userId, userId))
    expect(balance?.images).toBe(0)
    const held = await db()
      .select()
      .from(quotaReservations)
      .where(and(eq(quotaReservations.userId, userId), eq(quotaReservations.status, 'reserved')))
    expect(held.map((r) => r.source)).toEqual(Array.from({ length: credits }, () => 'credit'))
    expect((await getUsage(db(), userId, now)).images.used).toBe(250)
  })

  it('spends the plan’s last units before credits when 20 reservations race', async () => {
    const userId = await starterUser(3, 0)
    await setImageCredits(userId, 4)
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => reserveQuota(db(), userId, 'images', now)),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7)
    const held = await db().select().from(quotaReservations).where(eq(quotaReservations.userId, userId))
    expect(held.filter((r) => r.source === 'plan')).toHaveLength(3)
    expect(held.filter((r) => r.source === 'credit')).toHaveLength(4)
    const usage = await getUsage(db(), userId, now)
    expect(usage.images.used).toBe(250)
    expect(usage.credits.images).toBe(0)
  })

  it('gives a released unit back where it came from, once; a committed one stays used', async () => {
    const userId = await starterUser(2, 0)
    await setImageCredits(userId, 2)
    const plan = await reserveQuota(db(), userId, 'images', now)
    const planKept = await reserveQuota(db(), userId, 'images', now)
    const credit = await reserveQuota(db(), userId, 'images', now)
    const creditKept = await reserveQuota(db(), userId, 'images', now)
    expect(await sourceOf(credit.reservationId)).toBe('credit')
    expect(await getUsage(db(), userId, now)).toMatchObject({
      images: { used: 250 },
      credits: { images: 0 },
    })

    expect(await commitQuota(db(), planKept.reservationId, now)).toBe(true)
    expect(await commitQuota(db(), creditKept.reservationId, now)).toBe(true)
    expect(await releaseQuota(db(), credit.reservationId, now)).toBe(true)
    expect(await releaseQuota(db(), credit.reservationId, now)).toBe(false)
    expect(await getUsage(db(), userId, now)).toMatchObject({
      images: { used: 250 },
      credits: { images: 1, videos: 0 },
    })
    expect(await releaseQuota(db(), plan.reservationId, now)).toBe(true)
    expect(await releaseQuota(db(), plan.reservationId, now)).toBe(false)
    expect(await getUsage(db(), userId, now)).toMatchObject({
      images: { used: 249 },
      credits: { images: 1, videos: 0 },
    })
    // The unit given back to the plan is used again before the credit.
    const again = await reserveQuota(db(), userId, 'images', now)
    expect(await sourceOf(again.reservationId)).toBe('plan')
  })

  it('releases 20 concurrent credit holds back to exactly the credits they took', async () => {
    const userId = await starterUser(0, 0)
    await setImageCredits(userId, 20)
    const holds = await Promise.all(
      Array.from({ length: 20 }, () => reserveQuota(db(), userId, 'images', now)),
    )
    expect((await getCredits(db(), userId)).images).toBe(0)
    // Every hold released twice at once: each gives its unit back once.
    const released = await Promise.all(
      [...holds, ...holds].map((hold) => releaseQuota(db(), hold.reservationId, now)),
    )
    expect(released.filter(Boolean)).toHaveLength(20)
    expect((await getCredits(db(), userId)).images).toBe(20)
    expect((await getUsage(db(), userId, now)).images.used).toBe(250)
  })

  it('resets usage when the period rolls over, and keeps credits', async () => {
    const userId = await starterUser(0, 1)
    await reserveQuota(db(), userId, 'images', now)
    expect((await getUsage(db(), userId, now)).credits.images).toBe(99)
    const renewal = new Date('2026-12-15T12:00:01Z')
    const next = await getUsage(db(), userId, renewal)
    expect(next.period).toEqual({ start: '2026-12-15T12:00:00.000Z', end: '2027-01-15T12:00:00.000Z' })
    expect(next.images.used).toBe(0)
    expect(next.credits.images).toBe(99)
    // The new period's quota is spent before the credits again.
    const { reservationId } = await reserveQuota(db(), userId, 'images', renewal)
    expect(await sourceOf(reservationId)).toBe('plan')
    expect((await getUsage(db(), userId, renewal)).credits.images).toBe(99)
  })

  it('keeps the period and its usage through a manual upgrade, downgrade, cancel and new choice', async () => {
    const userId = await starterUser(10, 0)
    const period = (await getUsage(db(), userId, now)).period
    const midPeriod = new Date('2026-11-29T08:00:00Z')
    await activatePlan(db(), { userId, planId: 'growth', provider: 'manual', now: midPeriod })
    let usage = await getUsage(db(), userId, midPeriod)
    expect(usage.period).toEqual(period)
    expect(usage.images).toEqual({ used: 240, quota: 1000 })
    await activatePlan(db(), { userId, planId: 'starter', provider: 'manual', now: midPeriod })
    expect((await getUsage(db(), userId, midPeriod)).images).toEqual({ used: 240, quota: 250 })
    // Canceling and choosing again in the same period does not start a fresh quota either.
    await cancelSubscription(db(), userId, midPeriod)
    await activatePlan(db(), { userId, planId: 'pro', provider: 'manual', now: midPeriod })
    usage = await getUsage(db(), userId, midPeriod)
    expect(usage.period).toEqual(period)
    expect(usage.images).toEqual({ used: 240, quota: 2500 })
  })

  it('starts a new period for a plan chosen after the last one ran out', async () => {
    const userId = await starterUser(0, 0)
    await cancelSubscription(db(), userId, now)
    const later = new Date('2027-02-03T10:00:00Z')
    await activatePlan(db(), { userId, planId: 'growth', provider: 'manual', now: later })
    const usage = await getUsage(db(), userId, later)
    expect(usage.period).toEqual({ start: later.toISOString(), end: '2027-03-03T10:00:00.000Z' })
    expect(usage.images.used).toBe(0)
  })

  it('does not move a paid provider’s period on read: its webhook does', async () => {
    const userId = await starterUser(0, 0)
    await db().update(subscriptions).set({ provider: 'stripe' }).where(eq(subscriptions.userId, userId))
    const afterEnd = new Date('2026-12-20T00:00:00Z')
    const active = await getActiveSubscription(db(), userId, afterEnd)
    expect(active?.currentPeriodStart.toISOString()).toBe(now.toISOString())
    expect((await getUsage(db(), userId, afterEnd)).images.used).toBe(250)
  })

  it('renews a manual plan once when many readers cross its period end together', async () => {
    const userId = await starterUser(0, 0)
    const renewal = new Date('2026-12-16T00:00:00Z')
    const reads = await Promise.all(
      Array.from({ length: 10 }, () => getActiveSubscription(db(), userId, renewal)),
    )
    for (const read of reads) expect(read?.currentPeriodStart.toISOString()).toBe('2026-12-15T12:00:00.000Z')
    const rows = await db().select().from(subscriptions).where(eq(subscriptions.userId, userId))
    expect(rows).toHaveLength(1)
  })
})
