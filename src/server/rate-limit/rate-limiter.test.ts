import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../../../tests/support/test-database.ts'
import { resetDatabase } from '../../../tests/support/test-server.ts'
import { AppError } from '../../shared/errors.ts'
import type { Database } from '../db/client.ts'
import { createRateLimiter, type RateLimitRule } from './rate-limiter.ts'

const rule: RateLimitRule = { name: 'login', limit: 3, windowSeconds: 60 }

describe('createRateLimiter', () => {
  let database: Database
  let clock: Date
  const now = () => clock
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms)
  }

  beforeAll(async () => {
    database = await openTestDatabase()
  })
  beforeEach(async () => {
    await resetDatabase(database)
    clock = new Date('2030-01-01T12:00:00.000Z')
  })
  afterAll(async () => {
    await database.close()
  })

  it('allows the limit within a window and refuses the next attempt, saying how long to wait', async () => {
    const limiter = createRateLimiter(database.db, now)
    const results = []
    for (let i = 0; i < 4; i++) {
      results.push(await limiter.hit(rule, '203.0.113.7'))
      advance(5_000)
    }
    expect(results.map((r) => r.isAllowed)).toEqual([true, true, true, false])
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4])
    const refused = results[3]
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0)
    expect(refused?.retryAfterSeconds).toBeLessThanOrEqual(60)
    // The window opened at the first attempt, 15 s before the refused one.
    expect(refused?.retryAfterSeconds).toBe(45)
  })

  it('keeps refusing until the window has passed, then starts a new window', async () => {
    const limiter = createRateLimiter(database.db, now)
    for (let i = 0; i < 3; i++) await limiter.hit(rule, 'subject')
    advance(59_000)
    const stillLimited = await limiter.hit(rule, 'subject')
    expect(stillLimited.isAllowed).toBe(false)
    expect(stillLimited.retryAfterSeconds).toBe(1)

    advance(1_000)
    const fresh = await limiter.hit(rule, 'subject')
    expect(fresh).toEqual({ isAllowed: true, count: 1, retryAfterSeconds: 60 })
    await limiter.hit(rule, 'subject')
    await limiter.hit(rule, 'subject')
    expect((await limiter.hit(rule, 'subject')).isAllowed).toBe(false)
  })

  it('counts each subject and each rule on its own', async () => {
    const limiter = createRateLimiter(database.db, now)
    for (let i = 0; i < 4; i++) await limiter.hit(rule, 'alice')
    expect((await limiter.hit(rule, 'alice')).isAllowed).toBe(false)

    const bob = await limiter.hit(rule, 'bob')
    expect(bob).toMatchObject({ isAllowed: true, count: 1 })
    const otherRule = await limiter.hit({ name: 'contact', limit: 3, windowSeconds: 60 }, 'alice')
    expect(otherRule).toMatchObject({ isAllowed: true, count: 1 })
  })

  it('shares counts between limiters on the same database, as separate processes do', async () => {
    const first = createRateLimiter(database.db, now)
    const second = createRateLimiter(database.db, now)
    await first.hit(rule, 'shared')
    await second.hit(rule, 'shared')
    await first.hit(rule, 'shared')
    expect((await second.hit(rule, 'shared')).isAllowed).toBe(false)
  })

  it('lets exactly the limit through when many attempts arrive at once', async () => {
    const limiter = createRateLimiter(database.db, now)
    const burst = { name: 'burst', limit: 10, windowSeconds: 60 }
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit(burst, 'crowd')))
    expect(results.filter((r) => r.isAllowed)).toHaveLength(10)
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    )
  })

  it('consume passes within the limit and throws RATE_LIMITED with the wait beyond it', async () => {
    const limiter = createRateLimiter(database.db, now)
    for (let i = 0; i < 3; i++) await expect(limiter.consume(rule, 'x')).resolves.toBeUndefined()
    advance(20_000)
    const error = await limiter.consume(rule, 'x').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, details: { retryAfterSeconds: 40 } })
  })
})
