/**
 * Puts `key` into a map kept to at most `max` entries as its newest one (a Map iterates in
 * insertion order), dropping the oldest entries past `max`: the in-process memos' one eviction.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  for (const oldest of map.keys()) {
    if (map.size <= max) break
    map.delete(oldest)
  }
}
