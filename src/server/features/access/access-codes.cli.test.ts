import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// The CLI as an operator runs it, on an embedded data folder of its own.
const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-cli-'))
const cli = (...args: string[]) =>
  spawnSync('tsx', ['src/server/features/access/access-codes.cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  })

describe('npm run access-codes', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('creates, lists and revokes codes', () => {
    const created = cli('create', 'launch', '--note', 'launch event')
    expect(created.status).toBe(0)
    expect(created.stdout.trim()).toBe('LAUNCH')
    const generated = cli('create')
    expect(generated.stdout.trim()).toMatch(/^[A-Z2-9]{6}$/)

    const listed = cli('list')
    expect(listed.stdout).toMatch(/LAUNCH\s+active\s+0 uses\s+cli\s+launch event/)
    expect(cli('revoke', 'launch').stdout.trim()).toBe('revoked LAUNCH')
    expect(cli('list').stdout).toMatch(/LAUNCH\s+revoked/)
    expect(cli('revoke', 'NOSUCH').stdout.trim()).toBe('no such active code')
    expect(cli('frobnicate').status).toBe(2)
  })

  it('refuses to open the embedded database while a server holds it', () => {
    // This test process stands in for a running server.
    writeFileSync(join(dataDir, 'server.pid'), String(process.pid))
    try {
      const refused = cli('list')
      expect(refused.status).toBe(1)
      expect(refused.stderr).toContain('Stop it first')
    } finally {
      rmSync(join(dataDir, 'server.pid'))
    }
  })
})
