import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#server/db/client.ts'
import { subscriptions } from '#server/db/schema/index.ts'
import { startLockHolder } from '#tests/support/embedded-lock-holder.ts'
import { createUser } from '#tests/support/factories.ts'

// The CLI as an operator runs it, on an embedded data folder of its own.
const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-billing-cli-'))
const cli = (...args: string[]) =>
  spawnSync('tsx', ['src/server/features/billing/billing.cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  })

async function withDatabase<T>(use: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>) {
  const database = await openDatabase({ dataDir })
  try {
    await database.migrate()
    return await use(database.db)
  } finally {
    await database.close()
  }
}

describe('npm run billing', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('sets and ends a user plan by email or id', async () => {
    const userId = await withDatabase((db) => createUser(db, { email: 'seller@example.com' }))

    const set = cli('set-plan', 'Seller@Example.com', 'pro')
    expect(set.stderr).toBe('')
    expect(set.status).toBe(0)
    expect(set.stdout).toMatch(/^seller@example\.com: pro, current period to \d{4}-\d{2}-\d{2}\n$/)
    expect(cli('set-plan', userId, 'starter').stdout).toMatch(/^seller@example\.com: starter, /)
    expect(cli('set-plan', userId, 'none').stdout.trim()).toBe('seller@example.com: plan ended')
    expect(cli('set-plan', userId, 'none').stdout.trim()).toBe('seller@example.com: had no active plan')

    const rows = await withDatabase((db) =>
      db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
    )
    expect(rows.map((row) => [row.planId, row.status]).sort()).toEqual([
      ['pro', 'canceled'],
      ['starter', 'canceled'],
    ])
  }, 120_000)

  it('refuses unknown users, plans and commands', () => {
    const unknown = cli('set-plan', 'nobody@example.com', 'pro')
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toContain('no user')
    expect(cli('set-plan', 'seller@example.com', 'platinum').status).toBe(2)
    expect(cli('give-pro', 'seller@example.com').status).toBe(2)
  }, 60_000)

  it('refuses to open the embedded database while a server holds it', async () => {
    // A real process holds the data folder, as a running server would.
    const holder = await startLockHolder(dataDir)
    try {
      const refused = cli('set-plan', 'seller@example.com', 'pro')
      expect(refused.status).toBe(1)
      expect(refused.stderr).toContain(`Vitrin (process ${holder.pid}) is using the embedded database`)
      expect(refused.stderr).toContain('Stop it first')
    } finally {
      await holder.kill('SIGTERM')
    }
  })
})
