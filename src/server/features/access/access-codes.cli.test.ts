import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startLockHolder } from '#tests/support/embedded-lock-holder.ts'

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
    expect(listed.stdout).toMatch(/LAUNCH\s+active\s+0 uses\s+no expiry\s+cli\s+launch event/)
    expect(cli('revoke', 'launch').stdout.trim()).toBe('revoked LAUNCH')
    expect(cli('list').stdout).toMatch(/LAUNCH\s+revoked/)
    expect(cli('revoke', 'NOSUCH').stdout.trim()).toBe('no such active code')
    expect(cli('frobnicate').status).toBe(2)
  }, 120_000)

  it('creates codes with a redemption cap and an expiry, and lists them', () => {
    expect(cli('create', 'capped', '--max', '50', '--expires', '2999-01-31').stdout.trim()).toBe('CAPPED')
    expect(cli('create', '--expires', '2999-06-01T12:30:00+02:00', 'timed1').stdout.trim()).toBe('TIMED1')
    const listed = cli('list').stdout
    expect(listed).toMatch(/CAPPED\s+active\s+0\/50 uses\s+expires 2999-01-31T23:59:59\.999Z\s+cli/)
    expect(listed).toMatch(/TIMED1\s+active\s+0 uses\s+expires 2999-06-01T10:30:00\.000Z\s+cli/)
  })

  it.each([
    [['--max', '0'], /--max: "0" is not a whole number/],
    [['--max', 'many'], /--max: "many"/],
    [['--max'], /--max needs a value/],
    [['--expires', '2027-02-30'], /--expires: "2027-02-30" is not a date/],
    [['--expires', 'tomorrow'], /--expires: "tomorrow" is not a date/],
    [['--expires', '2001-01-01'], /--expires: 2001-01-01 is already past/],
    [['--colour', 'red'], /unknown option --colour/],
    [['ONE111', 'TWO222'], /unexpected argument "TWO222"/],
  ])('refuses create %j with a clear message and exit code 1', (args, message) => {
    const refused = cli('create', ...args)
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(message)
    expect(refused.stdout).toBe('')
  })

  it('refuses to open the embedded database while a server holds it', async () => {
    // A real process holds the data folder, as a running server would.
    const holder = await startLockHolder(dataDir)
    try {
      const refused = cli('list')
      expect(refused.status).toBe(1)
      expect(refused.stderr).toContain(`Vitrin (process ${holder.pid}) is using the embedded database`)
      expect(refused.stderr).toContain('Stop it first')
    } finally {
      await holder.kill('SIGTERM')
    }
  })
})
