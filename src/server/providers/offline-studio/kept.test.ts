import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createCache } from './kept.ts'

describe('the studio keeps recent results', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const counted = () => {
    let made = 0
    return {
      make: (value: string) => () => {
        made++
        return Promise.resolve(value)
      },
      made: () => made,
    }
  }

  it('makes each key once while in use, keeping the newest few', async () => {
    const kept = createCache<string>(2, 60_000)
    const { make, made } = counted()
    expect(await kept('a', make('A'))).toBe('A')
    expect(await kept('a', make('other'))).toBe('A')
    await kept('b', make('B'))
    await kept('c', make('C'))
    expect(made()).toBe(3)
    // 'a' was the oldest of three with room for two.
    expect(await kept('a', make('A again'))).toBe('A again')
    expect(made()).toBe(4)
  })

  it('lets everything go once unused for its idle time, and not before', async () => {
    const kept = createCache<string>(3, 60_000)
    const { make, made } = counted()
    await kept('a', make('A'))
    vi.advanceTimersByTime(59_000)
    // A use restarts the wait.
    await kept('a', make('A'))
    vi.advanceTimersByTime(59_000)
    await kept('a', make('A'))
    expect(made()).toBe(1)
    vi.advanceTimersByTime(60_000)
    await kept('a', make('A'))
    expect(made()).toBe(2)
  })

  it('forgets a failed result at once', async () => {
    const kept = createCache<string>(3, 60_000)
    await expect(kept('a', () => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable')
    expect(await kept('a', () => Promise.resolve('A'))).toBe('A')
  })
})
