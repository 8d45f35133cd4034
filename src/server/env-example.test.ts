import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'

// The README sends operators to .env.example for every setting, so it must name exactly the keys
// the config schema reads: a key added on either side alone fails here.

/** Keys set or shown commented out (`KEY=` or `# KEY=`) at the start of a line. */
function exampleKeys(): string[] {
  const text = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
  return [...text.matchAll(/^#?[ \t]*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1] as string)
}

/** The environment variables loadConfig looks at, seen by handing it an environment that records reads. */
function keysConfigReads(): string[] {
  const read = new Set<string>()
  const recorder = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_target, key) {
        if (typeof key === 'string') read.add(key)
        return undefined
      },
    },
  )
  loadConfig(recorder)
  return [...read]
}

describe('.env.example', () => {
  it('lists every key the config schema reads, and no other', () => {
    const listed = exampleKeys()
    const read = keysConfigReads()
    // Sanity: both sides were found at all (a broken pattern would otherwise agree on nothing).
    expect(read).toContain('DATA_DIR')
    expect(listed).toContain('DATA_DIR')
    expect([...new Set(listed)].sort()).toEqual([...new Set(read)].sort())
  })

  it('lists each key once', () => {
    const listed = exampleKeys()
    expect(listed.filter((key, index) => listed.indexOf(key) !== index)).toEqual([])
  })
})
