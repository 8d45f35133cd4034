import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// `npm ci` (CI, Dockerfiles, deploy pipelines) refuses a lockfile that lacks an optional
// dependency of any package in it, such as another platform's native build of biome or
// tailwind. npm leaves those out when it rewrites the lockfile from a node_modules that holds
// only this platform's builds; this catches such a lockfile before a fresh clone does.

type LockEntry = { optionalDependencies?: Record<string, string> }
type Lockfile = { lockfileVersion: number; packages: Record<string, LockEntry> }

/** Where Node would find `name` from the package at `path`: its own node_modules, then its ancestors'. */
function resolves(packages: Record<string, LockEntry>, path: string, name: string): boolean {
  let base = path
  for (;;) {
    if (`${base ? `${base}/` : ''}node_modules/${name}` in packages) return true
    if (!base) return false
    const parent = base.lastIndexOf('/node_modules/')
    base = parent >= 0 ? base.slice(0, parent) : ''
  }
}

describe('package-lock.json', () => {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as Lockfile

  it('records every optional dependency of every package, for every platform (npm ci needs them)', () => {
    expect(lock.lockfileVersion).toBe(3)
    const missing = Object.entries(lock.packages).flatMap(([path, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolves(lock.packages, path, name))
        .map((name) => `${path || '(root)'} → ${name}`),
    )
    // Sanity: the native builds this guards are there at all.
    expect(Object.keys(lock.packages)).toContain('node_modules/@biomejs/cli-win32-x64')
    expect(missing).toEqual([])
  })
})
