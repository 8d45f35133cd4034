import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { subscriptions } from '#server/db/schema/index.ts'
import { addOneMonth, getActiveSubscription } from '#server/plans/live-plan.ts'
import { createUser } from '#tests/support/factories.ts'
import { openTestDatabase } from '#tests/support/test-database.ts'
import { resetDatabase } from '#tests/support/test-server.ts'
import { activatePlan, startTrial } from './subscription.service.ts'

describe('addOneMonth', () => {
  it('keeps the day of month, clamped to the month end', () => {
    expect(addOneMonth(new Date('2026-01-15T10:00:00Z')).toISOString()).toBe('2026-02-15T10:00:00.000Z')
    expect(addOneMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z')
    expect(addOneMonth(new Date('2028-01-31T10:00:00Z')).toISOString()).toBe('2028-02-29T10:00:00.000Z')
    expect(addOneMonth(new Date('2026-12-20T00:00:00Z')).toISOString()).toBe('2027-01-20T00:00:00.000Z')
  })
})

describe('subscriptions', () => {
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

  it('ends a beta trial after 30 days', async () => {
    const userId = await createUser(database.db, { isBeta: true })
    const start = new Date('2026-11-01T00:00:00Z')
    await startTrial(database.db, userId, start)
    expect(await getActiveSubscription(database.db, userId, new Date('2026-11-30T23:00:00Z'))).not.toBeNull()
    expect(await getActiveSubscription(database.db, userId, new Date('2026-12-01T00:00:01Z'))).toBeNull()
    const [row] = await database.db.select().from(subscriptions)
    expect(row?.status).toBe('expired')
  })

  it('keeps a past-due plan working while the provider retries, and ends it with the provider', async () => {
    const userId = await createUser(database.db)
    const now = new Date('2026-11-10T09:00:00Z')
    await activatePlan(database.db, { userId, planId: 'growth', provider: 'manual', now })
    await database.db
      .update(subscriptions)
      .set({ status: 'past_due' })
      .where(eq(subscriptions.userId, userId))
    expect((await getActiveSubscription(database.db, userId, now))?.planId).toBe('growth')
    await database.db
      .update(subscriptions)
      .set({ status: 'canceled' })
      .where(eq(subscriptions.userId, userId))
    expect(await getActiveSubscription(database.db, userId, now)).toBeNull()
  })

  it('renews a plan for the period that contains now', async () => {
    const userId = await createUser(database.db)
    await activatePlan(database.db, {
      userId,
      planId: 'starter',
      provider: 'manual',
      now: new Date('2026-08-10T09:00:00Z'),
    })
    const renewed = await getActiveSubscription(database.db, userId, new Date('2026-11-22T00:00:00Z'))
    expect(renewed?.currentPeriodStart.toISOString()).toBe('2026-11-10T09:00:00.000Z')
    expect(renewed?.currentPeriodEnd.toISOString()).toBe('2026-12-10T09:00:00.000Z')
  })

  it('keeps one active subscription per user, even when plans are chosen at the same time', async () => {
    const userId = await createUser(database.db)
    const now = new Date('2026-11-22T00:00:00Z')
    await Promise.allSettled(
      (['starter', 'growth', 'pro', 'growth', 'starter'] as const).map((planId) =>
        activatePlan(database.db, { userId, planId, provider: 'manual', now }),
      ),
    )
    const rows = await database.db.select().from(subscriptions)
    expect(rows.filter((r) => r.status === 'active')).toHaveLength(1)
  })

  it('replaces a trial with a chosen plan', async () => {
    const userId = await createUser(database.db, { isBeta: true })
    const now = new Date('2026-11-22T00:00:00Z')
    await startTrial(database.db, userId, now)
    await activatePlan(database.db, { userId, planId: 'growth', provider: 'manual', now })
    const active = await getActiveSubscription(database.db, userId, now)
    expect(active).toMatchObject({ planId: 'growth', isTrial: false })
  })
})
