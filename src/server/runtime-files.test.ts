import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { isBuiltServer, projectFile, workerEntry } from './runtime-files.ts'

// From the sources (the built side: built-server.process.test.ts).
describe('runtime files, from the sources', () => {
  it('finds files by their path from the project root', () => {
    expect(isBuiltServer).toBe(false)
    const manifest = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { name: string }
    expect(manifest.name).toBe('vitrin')
    expect(existsSync(projectFile('drizzle/meta/_journal.json'))).toBe(true)
  })

  it('starts worker threads from their TypeScript sources', () => {
    const source = new URL('./db/pglite-thread-worker.ts', import.meta.url)
    expect(workerEntry(source)).toBe(source)
    expect(existsSync(fileURLToPath(workerEntry(source)))).toBe(true)
  })
})
