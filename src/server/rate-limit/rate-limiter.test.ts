import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { AppError } from '#shared/errors.ts'
import { openTestDatabase } from '#tests/support/test-database.ts'
import { resetDatabase } from '#tests/support/test-server.ts'
import {
  type BackoffRule,
  backoffDelaySeconds,
  createRateLimiter,
  type RateLimitRule,
} from './rate-limiter.ts'

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

  it('counts several rules in one statement and refuses when any of them is over', async () => {
    const limiter = createRateLimiter(database.db, now)
    const perAccount = { name: 'per-account', limit: 3, windowSeconds: 60 }
    const perClient = { name: 'per-client', limit: 5, windowSeconds: 60 }
    const both = (account: string) =>
      limiter.consumeAll([
        [perAccount, account],
        [perClient, '203.0.113.9'],
      ])
    for (let i = 0; i < 3; i++) await both('alice')
    await expect(both('alice')).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    // The client's bucket counted alice's four tries: bob gets one more, then the client is over.
    await both('bob')
    await expect(both('bob')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 60 },
    })
    advance(60_000)
    await both('alice')
    await expect(
      limiter.consumeAll([
        [perAccount, 'x'],
        [{ ...perClient, windowSeconds: 30 }, 'y'],
      ]),
    ).rejects.toThrow(/one window length/)
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
  const backoff: BackoffRule = {
    name: 'sign-in-fail',
    freeAttempts: 3,
    maxDelaySeconds: 10,
    windowSeconds: 3600,
  }

  it('computes growing delays past the free attempts, capped', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffDelaySeconds(backoff, n))).toEqual([
      0, 0, 0, 1, 2, 4, 8, 10, 10,
    ])
  })

  it('lets the free attempts through at once, then only after a wait that doubles, never counting refusals', async () => {
    const limiter = createRateLimiter(database.db, now)
    for (let i = 1; i <= 3; i++)
      expect(await limiter.attempt(backoff, 'a')).toMatchObject({ isAllowed: true, count: i })
    const waits: number[] = []
    for (let i = 0; i < 5; i++) {
      const refused = await limiter.attempt(backoff, 'a')
      expect(refused.isAllowed).toBe(false)
      // Asking again while refused changes nothing.
      expect((await limiter.attempt(backoff, 'a')).count).toBe(refused.count)
      waits.push(refused.retryAfterSeconds)
      advance(refused.retryAfterSeconds * 1000 - 1)
      expect((await limiter.attempt(backoff, 'a')).isAllowed).toBe(false)
      advance(1)
      expect((await limiter.attempt(backoff, 'a')).isAllowed).toBe(true)
    }
    expect(waits).toEqual([1, 2, 4, 8, 10])
    expect((await limiter.peek(backoff, 'a'))?.count).toBe(8)
    // Another subject is not slowed down.
    expect((await limiter.attempt(backoff, 'b')).isAllowed).toBe(true)
  })

  it('lets one attempt through when several arrive together past the free ones', async () => {
    const limiter = createRateLimiter(database.db, now)
    for (let i = 0; i < 3; i++) await limiter.attempt(backoff, 'crowd')
    advance(5_000)
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.attempt(backoff, 'crowd')))
    expect(results.filter((r) => r.isAllowed)).toHaveLength(1)
  })

  it('forgets backoff attempts when the window has passed', async () => {
    const limiter = createRateLimiter(database.db, now)
    for (let i = 0; i < 3; i++) await limiter.attempt(backoff, 'a')
    expect((await limiter.attempt(backoff, 'a')).isAllowed).toBe(false)
    advance(3_600_000)
    expect(await limiter.peek(backoff, 'a')).toBeNull()
    expect(await limiter.attempt(backoff, 'a')).toMatchObject({ isAllowed: true, count: 1 })
  })

  it('peeks without counting, clears a subject, and refunds one attempt', async () => {
    const limiter = createRateLimiter(database.db, now)
    expect(await limiter.peek(rule, 'p')).toBeNull()
    await limiter.hit(rule, 'p')
    advance(2_000)
    await limiter.hit(rule, 'p')
    const state = await limiter.peek(rule, 'p')
    expect(state).toEqual({
      count: 2,
      windowStart: new Date('2030-01-01T12:00:00.000Z'),
      lastHitAt: new Date('2030-01-01T12:00:02.000Z'),
    })
    expect((await limiter.peek(rule, 'p'))?.count).toBe(2)
    await limiter.refund(rule, 'p')
    expect((await limiter.peek(rule, 'p'))?.count).toBe(1)
    await limiter.clear(rule, 'p')
    expect(await limiter.peek(rule, 'p')).toBeNull()
    expect((await limiter.hit(rule, 'p')).count).toBe(1)
    await limiter.refund(rule, 'p')
    await limiter.refund(rule, 'p')
    expect((await limiter.hit(rule, 'p')).count).toBe(1)
  })
})
