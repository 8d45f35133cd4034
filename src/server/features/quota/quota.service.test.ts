import { and, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { quotaReservations, usageMonthly } from '#server/db/schema/index.ts'
import { cancelSubscription } from '#server/features/billing/subscription.service.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan } from '#shared/plans.ts'
import { createSubscribedUser, createUser } from '#tests/support/factories.ts'
import { openTestDatabase, testEngine } from '#tests/support/test-database.ts'
import { resetDatabase } from '#tests/support/test-server.ts'
import { commitQuota, releaseQuota, reserveQuota } from './quota.service.ts'
import { getUsage, setPeriodUsage } from './usage.service.ts'

const now = new Date('2026-11-15T12:00:00Z')

async function setUsage(database: Database, userId: string, imagesUsed: number, videosUsed: number) {
  await setPeriodUsage(database.db, userId, now, { imagesUsed, videosUsed })
}

async function errorCodeOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise
    return null
  } catch (error) {
    if (error instanceof AppError) return error.code
    throw error
  }
}

describe(`quota service (${testEngine})`, () => {
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

  it('counts no usage row as 0 used and no subscription as no quota', async () => {
    const userId = await createUser(database.db)
    const usage = await getUsage(database.db, userId, now)
    expect(usage).toMatchObject({
      period: null,
      subscription: null,
      images: { used: 0, quota: 0 },
      videos: { used: 0, quota: 0 },
      credits: { images: 0, videos: 0 },
    })
    expect(await errorCodeOf(reserveQuota(database.db, userId, 'images', now))).toBe('NO_SUBSCRIPTION')
  })

  it('reserves up to the plan quota, then refuses with the resource-specific code', async () => {
    const userId = await createSubscribedUser(database.db, 'starter', now)
    await setUsage(database, userId, 249, 10)
    await reserveQuota(database.db, userId, 'images', now)
    expect(await errorCodeOf(reserveQuota(database.db, userId, 'images', now))).toBe('QUOTA_EXCEEDED_IMAGES')
    expect(await errorCodeOf(reserveQuota(database.db, userId, 'videos', now))).toBe('QUOTA_EXCEEDED_VIDEOS')
    const usage = await getUsage(database.db, userId, now)
    expect(usage.images).toEqual({ used: 250, quota: 250 })
  })

  it('commits and releases exactly once each', async () => {
    const userId = await createSubscribedUser(database.db, 'growth', now)
    const kept = await reserveQuota(database.db, userId, 'videos', now)
    const given = await reserveQuota(database.db, userId, 'videos', now)
    expect((await getUsage(database.db, userId, now)).videos.used).toBe(2)

    expect(await commitQuota(database.db, kept.reservationId, now)).toBe(true)
    expect(await commitQuota(database.db, kept.reservationId, now)).toBe(false)
    expect(await releaseQuota(database.db, kept.reservationId, now)).toBe(false)

    expect(await releaseQuota(database.db, given.reservationId, now)).toBe(true)
    expect(await releaseQuota(database.db, given.reservationId, now)).toBe(false)
    expect(await commitQuota(database.db, given.reservationId, now)).toBe(false)

    expect((await getUsage(database.db, userId, now)).videos.used).toBe(1)
  })

  it('gives a released unit back to the period it was taken from', async () => {
    // The plan's periods: Nov 15 12:00 – Dec 15 12:00, then to Jan 15.
    const userId = await createSubscribedUser(database.db, 'growth', now)
    const lastHour = new Date('2026-12-15T11:59:00Z')
    const nextPeriod = new Date('2026-12-15T12:00:00Z')
    await setUsage(database, userId, 5, 0)
    const { reservationId } = await reserveQuota(database.db, userId, 'images', lastHour)
    await reserveQuota(database.db, userId, 'images', nextPeriod)
    await releaseQuota(database.db, reservationId, nextPeriod)
    const rows = await database.db.select().from(usageMonthly).where(eq(usageMonthly.userId, userId))
    expect(rows.find((r) => r.period === now.toISOString())?.imagesUsed).toBe(5)
    expect(rows.find((r) => r.period === nextPeriod.toISOString())?.imagesUsed).toBe(1)
  })

  it('starts the next billing period at 0, not the next calendar month', async () => {
    const userId = await createSubscribedUser(database.db, 'starter', now)
    await setUsage(database, userId, 250, 10)
    // December 1st is still in the period that began on November 15th.
    const december = new Date('2026-12-01T00:00:00Z')
    expect(await errorCodeOf(reserveQuota(database.db, userId, 'images', december))).toBe(
      'QUOTA_EXCEEDED_IMAGES',
    )
    const renewal = new Date('2026-12-15T12:00:00Z')
    await reserveQuota(database.db, userId, 'images', renewal)
    const usage = await getUsage(database.db, userId, renewal)
    expect(usage.images).toEqual({ used: 1, quota: 250 })
    expect(usage.period).toEqual({ start: '2026-12-15T12:00:00.000Z', end: '2027-01-15T12:00:00.000Z' })
  })

  it('refuses once the plan is canceled', async () => {
    const userId = await createSubscribedUser(database.db, 'pro', now)
    await cancelSubscription(database.db, userId, now)
    expect(await errorCodeOf(reserveQuota(database.db, userId, 'images', now))).toBe('NO_SUBSCRIPTION')
  })

  it('accepts exactly N of 200 concurrent reservations when N are left', async () => {
    const userId = await createSubscribedUser(database.db, 'growth', now)
    const left = 7
    await setUsage(database, userId, getPlan('growth').imageQuota - left, 0)
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => reserveQuota(database.db, userId, 'images', now)),
    )
    const accepted = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r) => r.status === 'rejected')
    expect(accepted).toHaveLength(left)
    for (const r of refused) expect((r.reason as AppError).code).toBe('QUOTA_EXCEEDED_IMAGES')
    expect((await getUsage(database.db, userId, now)).images.used).toBe(1000)
    const reservations = await database.db
      .select()
      .from(quotaReservations)
      .where(and(eq(quotaReservations.userId, userId), eq(quotaReservations.status, 'reserved')))
    expect(reservations).toHaveLength(left)
  })

  it('keeps used = held reservations and never above quota, whatever the order of operations', async () => {
    // A model of the rules: reserve succeeds only below quota; commit and release settle a
    // reservation once; release gives one unit back.
    type Op = { kind: 'reserve' } | { kind: 'commit'; pick: number } | { kind: 'release'; pick: number }
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      fc.constant({ kind: 'reserve' as const }),
      fc.record({ kind: fc.constant('commit' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 10 }),
        async (ops, left) => {
          await resetDatabase(database)
          const userId = await createSubscribedUser(database.db, 'starter', now)
          const quota = getPlan('starter').videoQuota
          await setUsage(database, userId, 0, quota - left)
          let modelUsed = quota - left
          const reservations: { id: string; state: 'reserved' | 'committed' | 'released' }[] = []
          for (const op of ops) {
            if (op.kind === 'reserve') {
              const code = await errorCodeOf(
                reserveQuota(database.db, userId, 'videos', now).then((r) =>
                  reservations.push({ id: r.reservationId, state: 'reserved' }),
                ),
              )
              if (modelUsed < quota) {
                expect(code).toBeNull()
                modelUsed += 1
              } else {
                expect(code).toBe('QUOTA_EXCEEDED_VIDEOS')
              }
            } else if (reservations.length > 0) {
              const target = reservations[op.pick % reservations.length]
              if (!target) continue
              const changed =
                op.kind === 'commit'
                  ? await commitQuota(database.db, target.id, now)
                  : await releaseQuota(database.db, target.id, now)
              expect(changed).toBe(target.state === 'reserved')
              if (changed) {
                target.state = op.kind === 'commit' ? 'committed' : 'released'
                if (op.kind === 'release') modelUsed -= 1
              }
            }
            const usage = await getUsage(database.db, userId, now)
            expect(usage.videos.used).toBe(modelUsed)
            expect(usage.videos.used).toBeLessThanOrEqual(quota)
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})
