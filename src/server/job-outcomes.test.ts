import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import type { GenerationRow } from '#server/db/schema/index.ts'
import { generations, quotaReservations, usageMonthly } from '#server/db/schema/index.ts'
import { createNotifier } from '#server/events/notifier.ts'
import { quotaHoldFor } from '#server/features/quota/quota.service.ts'
import { acceptJob } from '#server/job-queue/accept-job.ts'
import { claimJobs, recordProviderRequest, renewLease } from '#server/job-queue/claim-jobs.ts'
import type { JobOutcomeDeps } from '#server/job-queue/job-queue.ts'
import type { FinishedWrite } from '#server/job-queue/outcomes.ts'
import { failJob, handBackJob, succeedJob } from '#server/job-queue/settle-job.ts'
import { createSubscribedUser } from '#tests/support/factories.ts'
import { openTestDatabase, testEngine } from '#tests/support/test-database.ts'
import { resetDatabase } from '#tests/support/test-server.ts'
import { jobOutcomes } from './job-outcomes.ts'
import { createLogger } from './logger.ts'

// The job queue with the outcomes the features register (job-outcomes.ts), plus one finished write
// and one after-step of the test's own, on the state changes the HTTP tests cannot reach on
// purpose: a worker that lost its job to another (its lease ran out), and a job handed back on
// shutdown. The rest (accept, claim, cancel, retry, fail, succeed) is covered over HTTP in
// generations.test.ts and fair-queue.test.ts.

describe(`job queue (${testEngine})`, () => {
  let database: Database
  let deps: JobOutcomeDeps
  /** What the registered outcomes heard: rows written at finish, and the final rows after commit. */
  let heard: { written: number[]; settled: GenerationRow[] }
  // A finished write that returns one row when the outcome applies (and none when it does not).
  const marker: FinishedWrite = {
    ctes: (db, job) => [
      db.$with('marker', { one: sql<number>`one` }).as(sql`select 1 as one where ${job.applied}`),
    ],
    afterCommit: (written) => heard.written.push(written),
  }
  beforeAll(async () => {
    database = await openTestDatabase()
    const registered = jobOutcomes(createLogger({ level: 'silent' }))
    deps = {
      db: database.db,
      notifier: createNotifier(),
      outcomes: {
        ...registered,
        finished: [...registered.finished, marker],
        afterSettled: [...registered.afterSettled, async (row) => void heard.settled.push(row)],
      },
    }
  })
  beforeEach(async () => {
    heard = { written: [], settled: [] }
    await resetDatabase(database)
  })
  afterAll(async () => {
    await database.close()
  })

  /** Queues one image job holding a unit of quota, as the generations service does. */
  async function queueImageJob() {
    const now = new Date()
    const userId = await createSubscribedUser(database.db, 'starter', now)
    const hold = await quotaHoldFor(database.db, userId, 'images', now)
    const row = await acceptJob(
      deps,
      { userId, tool: 'product', mode: 'image', aspectRatio: '1:1', provider: 'fal', usesOwnKey: false },
      { hold, storageQuotaBytes: 1_000_000, maxQueuedPerUser: 10 },
    )
    return { userId, row }
  }
  const claim = (workerId: string, leaseMs: number) =>
    claimJobs(deps, {
      workerId,
      limit: 1,
      maxRunningPerUser: 2,
      leaseMs,
      isSerialized: testEngine === 'postgres',
    })
  const readRow = async (id: string) => {
    const [row] = await database.db.select().from(generations).where(eq(generations.id, id))
    if (!row) throw new Error('the row is gone')
    return row
  }
  const reservationStatus = async (id: string | null) => {
    if (!id) throw new Error('the job holds no quota')
    const [reservation] = await database.db
      .select()
      .from(quotaReservations)
      .where(eq(quotaReservations.id, id))
    return reservation?.status
  }
  const imagesUsed = async (userId: string) => {
    const [usage] = await database.db.select().from(usageMonthly).where(eq(usageMonthly.userId, userId))
    return usage?.imagesUsed
  }

  it('gives a job whose lease ran out to the next claim; the old worker can no longer change it', async () => {
    const { userId, row } = await queueImageJob()
    // A lease that ran out a second before it was taken: as if its worker had stopped renewing.
    const [first] = await claim('worker-old', -1000)
    expect(first?.row.id).toBe(row.id)
    if (!first) throw new Error('nothing claimed')
    const [second] = await claim('worker-new', 30_000)
    expect(second?.row).toMatchObject({ id: row.id, attempts: 2, lockedBy: 'worker-new' })
    if (!second) throw new Error('the expired job was not claimed again')
    const old = { row: first.row, workerId: 'worker-old' }
    const current = { row: second.row, workerId: 'worker-new' }

    expect(await renewLease(database.db, old, 30_000)).toBe('lost')
    expect(await renewLease(database.db, current, 30_000)).toBe('held')
    // The old worker's writes apply to nothing: no request id, no outcome, no quota settled.
    await recordProviderRequest(database.db, old, 'req-old')
    const result = {
      type: 'image',
      assetId: row.id,
      description: null,
      promptUsed: 'a',
      provider: 'fal',
    } as const
    expect(await succeedJob(deps, old, result, [])).toBe(false)
    expect(await readRow(row.id)).toMatchObject({
      status: 'running',
      lockedBy: 'worker-new',
      providerRequestId: null,
    })
    expect(await reservationStatus(row.quotaReservationId)).toBe('reserved')

    // The holder's outcome settles the job and its quota, once.
    expect(await failJob(deps, current, 'PROVIDER_REJECTED')).toBe(true)
    expect(await failJob(deps, current, 'PROVIDER_REJECTED')).toBe(false)
    expect(await readRow(row.id)).toMatchObject({
      status: 'failed',
      errorCode: 'PROVIDER_REJECTED',
      lockedBy: null,
    })
    expect(await reservationStatus(row.quotaReservationId)).toBe('released')
    expect(await imagesUsed(userId)).toBe(0)
    // The registered outcomes heard the one outcome that applied, and only it.
    expect(heard.written).toEqual([1])
    expect(heard.settled.map((settled) => [settled.id, settled.status])).toEqual([[row.id, 'failed']])
  })

  it('hands a job back on shutdown untouched: due at once, the try not counted, its request id and quota kept', async () => {
    const { userId, row } = await queueImageJob()
    const [claimed] = await claim('worker-a', 30_000)
    if (!claimed) throw new Error('nothing claimed')
    const held = { row: claimed.row, workerId: 'worker-a' }
    await recordProviderRequest(database.db, held, 'req-1')

    expect(await handBackJob(deps, held)).toBe(true)
    expect(await readRow(row.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      providerRequestId: 'req-1',
      lockedBy: null,
      leaseUntil: null,
    })
    expect(await reservationStatus(row.quotaReservationId)).toBe('reserved')
    expect(await imagesUsed(userId)).toBe(1)
    // The next claim takes it at once, as its first try.
    const [again] = await claim('worker-b', 30_000)
    expect(again?.row).toMatchObject({ id: row.id, attempts: 1, providerRequestId: 'req-1' })
    // Not finished: nothing registered for a finished job ran.
    expect(heard).toEqual({ written: [], settled: [] })
  })
})
