import { setNewest } from '#shared/bounded-map.ts'

/**
 * Keeps the last few results of a pure, slow step: rendered backdrops (functions of scene and
 * ratio: a repeat of a popular scene skips 100–300 ms of painting) and separated subjects
 * (functions of the photo's bytes: trying another scene skips the flood fill and the model).
 * All of them are let go `idleMs` after the last call: a quiet server gives their memory back.
 */
export function createCache<T>(
  limit: number,
  idleMs: number,
): (key: string, make: () => Promise<T>) => Promise<T> {
  const cache = new Map<string, Promise<T>>()
  let idleTimer: NodeJS.Timeout | null = null
  const forgetWhenIdle = () => {
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = setTimeout(() => {
      idleTimer = null
      cache.clear()
    }, idleMs)
    idleTimer.unref()
  }
  return (key, make) => {
    if (limit <= 0) return make()
    forgetWhenIdle()
    const hit = cache.get(key)
    if (hit) {
      // Re-inserting marks the entry as most recently used.
      setNewest(cache, key, hit, limit)
      return hit
    }
    const pending = make()
    setNewest(cache, key, pending, limit)
    pending.catch(() => cache.delete(key))
    return pending
  }
}
