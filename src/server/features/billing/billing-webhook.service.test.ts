import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { openTestDatabase } from '#tests/support/test-database.ts'
import { subjectLocked } from './billing-webhook.service.ts'

// Deliveries about one subscription in two server processes: the second waits for the first's
// commit (on PostgreSQL by the advisory lock; the embedded database serializes transactions).
describe('subjectLocked', () => {
  let database: Database

  async function waitingForAdvisoryLock(): Promise<void> {
    const result = (await database.db.execute(
      sql`select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted`,
    )) as unknown as { rows: { waiting: number }[] }
    expect(result.rows[0]?.waiting).toBe(1)
  }
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  afterAll(async () => {
    await database?.close()
  })

  it('runs a second delivery about the same subject only after the first has committed', async () => {
    const order: string[] = []
    let releaseFirst = () => {}
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve
    })
    let firstEntered = () => {}
    const entered = new Promise<void>((resolve) => {
      firstEntered = resolve
    })
    const first = subjectLocked(database.db, 'sub_1', async () => {
      order.push('first:start')
      firstEntered()
      await firstHolds
      order.push('first:end')
    })
    await entered
    const second = subjectLocked(database.db, 'sub_1', async () => {
      order.push('second:start')
    })
    // Let the first finish only once the second is seen waiting for the lock (on PostgreSQL, in
    // pg_locks; the embedded database queues the second transaction behind the first).
    if (database.kind === 'postgres') await vi.waitFor(waitingForAdvisoryLock, { timeout: 10_000 })
    else await new Promise((resolve) => setImmediate(resolve))
    order.push('release')
    releaseFirst()
    await Promise.all([first, second])
    expect(order).toEqual(['first:start', 'release', 'first:end', 'second:start'])
  })
})
