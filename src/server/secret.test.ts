import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadOrCreateSecret } from './secret.ts'

describe('loadOrCreateSecret', () => {
  let root: string
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vitrin-secret-'))
  })
  afterEach(() => {
    rmSync(root, { recursive: true, force: true })
  })

  it('creates a long secret, readable by the owner only, in a data dir it creates', () => {
    const dataDir = join(root, 'nested', 'data')
    const { secret, isNew } = loadOrCreateSecret(dataDir)
    expect(isNew).toBe(true)
    expect(secret.length).toBeGreaterThanOrEqual(32)
    const path = join(dataDir, 'secret')
    expect(readFileSync(path, 'utf8').trim()).toBe(secret)
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600)
  })

  it('returns the same secret on the next call', () => {
    const first = loadOrCreateSecret(root)
    const second = loadOrCreateSecret(root)
    expect(second).toEqual({ secret: first.secret, isNew: false })
  })

  it('gives different data dirs different secrets', () => {
    const a = loadOrCreateSecret(join(root, 'a')).secret
    const b = loadOrCreateSecret(join(root, 'b')).secret
    expect(a).not.toBe(b)
  })

  it('replaces a secret file that is too short to be safe', () => {
    writeFileSync(join(root, 'secret'), 'short\n')
    const { secret, isNew } = loadOrCreateSecret(root)
    expect(isNew).toBe(true)
    expect(secret.length).toBeGreaterThanOrEqual(32)
    expect(loadOrCreateSecret(root)).toEqual({ secret, isNew: false })
  })
})
