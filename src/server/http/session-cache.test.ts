import { describe, expect, it } from 'vitest'
import { createSessionCache, type SessionLookup } from './session-cache.ts'

const farFuture = new Date('2100-01-01T00:00:00Z')

function counted(result: () => SessionLookup<string>) {
  let loads = 0
  return {
    load: async () => {
      loads++
      return result()
    },
    get loads() {
      return loads
    },
  }
}

describe('session cache', () => {
  it('shares one lookup between concurrent requests with the same cookie', async () => {
    const cache = createSessionCache<string>()
    const source = counted(() => ({ value: 'seller', expiresAt: farFuture }))
    const values = await Promise.all(Array.from({ length: 20 }, () => cache.get('cookie-a', source.load)))
    expect(values).toEqual(Array(20).fill('seller'))
    expect(source.loads).toBe(1)
    expect(await cache.get('cookie-b', source.load)).toBe('seller')
    expect(source.loads).toBe(2)
  })

  it('looks the session up again once the entry is older than its time to live', async () => {
    let clock = 0
    const cache = createSessionCache<string>({ ttlMs: 5000, now: () => clock })
    const source = counted(() => ({ value: 'seller', expiresAt: farFuture }))
    await cache.get('cookie', source.load)
    clock = 4999
    await cache.get('cookie', source.load)
    expect(source.loads).toBe(1)
    clock = 5000
    await cache.get('cookie', source.load)
    expect(source.loads).toBe(2)
  })

  it('never keeps an entry past the session own expiry', async () => {
    let clock = 1000
    const cache = createSessionCache<string>({ ttlMs: 5000, now: () => clock })
    const source = counted(() => ({ value: 'seller', expiresAt: new Date(1500) }))
    await cache.get('cookie', source.load)
    clock = 1500
    await cache.get('cookie', source.load)
    expect(source.loads).toBe(2)
  })

  it('does not keep refused cookies or failed lookups', async () => {
    const cache = createSessionCache<string>()
    const refused = counted(() => null)
    expect(await cache.get('stale', refused.load)).toBeNull()
    expect(await cache.get('stale', refused.load)).toBeNull()
    expect(refused.loads).toBe(2)
    await expect(cache.get('broken', () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    )
    expect(cache.size).toBe(0)
  })

  it('forgets everything on clear, also a lookup still in flight', async () => {
    const cache = createSessionCache<string>()
    let finish: (lookup: SessionLookup<string>) => void = () => {}
    const pending = cache.get('cookie', () => new Promise((resolve) => (finish = resolve)))
    cache.clear()
    finish({ value: 'seller', expiresAt: farFuture })
    expect(await pending).toBe('seller')
    expect(cache.size).toBe(0)
    const source = counted(() => null)
    expect(await cache.get('cookie', source.load)).toBeNull()
    expect(source.loads).toBe(1)
  })

  it('holds at most maxEntries cookies, dropping the oldest', async () => {
    const cache = createSessionCache<string>({ maxEntries: 2 })
    const source = counted(() => ({ value: 'seller', expiresAt: farFuture }))
    for (const cookie of ['a', 'b', 'c']) await cache.get(cookie, source.load)
    expect(cache.size).toBe(2)
    await cache.get('a', source.load)
    expect(source.loads).toBe(4)
  })
})
