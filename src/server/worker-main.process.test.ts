import { type ChildProcess, spawn } from 'node:child_process'
import { inArray, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generations } from '#server/db/schema/index.ts'
import { claimLockId } from '#server/job-queue/claim-jobs.ts'
import { createGeneration, signedInClient, uploadPhoto } from '#tests/support/generation-client.ts'
import { withDatabaseName } from '#tests/support/postgres.ts'
import { testEngine } from '#tests/support/test-database.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'

// `npm run worker` beside a web server, as scale-out runs them: two processes on one PostgreSQL,
// the server without a worker of its own. Results reach the browser through LISTEN/NOTIFY.

/**
 * How soon after the worker records a result its event stream must carry it. While the server
 * hears other processes, its streams look at the database only every 5 s (generation-events.ts),
 * so only a notice can bring three results this soon (by chance, each about once in seven).
 */
const noticeBoundMs = 750

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function startWorkerProcess(env: Record<string, string>): Started {
  // node --import tsx, not the tsx CLI: signals must reach the worker itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/worker-main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const append = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

function waitForOutput(started: Started, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!started.output().includes(text)) return
      cleanup()
      resolve()
    }
    const onExit = () => {
      cleanup()
      reject(new Error(`the worker exited before printing ${text}:\n${started.output()}`))
    }
    const cleanup = () => {
      started.child.stdout?.off('data', check)
      started.child.off('exit', onExit)
    }
    started.child.stdout?.on('data', check)
    started.child.on('exit', onExit)
    check()
  })
}

/** Follows a generation's event stream to its end; the time each status first arrived. */
async function followStream(
  client: TestClient,
  id: string,
  onFirstEvent: () => void,
): Promise<Map<string, number>> {
  const response = await client.request(`/api/generations/${id}/events`)
  expect(response.status).toBe(200)
  const reader = response.body?.getReader()
  if (!reader) throw new Error('no body')
  const arrived = new Map<string, number>()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return arrived
    buffer += decoder.decode(value, { stream: true })
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue
      const { status } = JSON.parse(line.slice('data: '.length)) as { status: string }
      if (arrived.size === 0) onFirstEvent()
      if (!arrived.has(status)) arrived.set(status, Date.now())
    }
  }
}

describe.skipIf(testEngine !== 'postgres')('a worker process beside the server on PostgreSQL', () => {
  let server: TestServer
  let databaseUrl: string
  let worker: Started
  beforeAll(async () => {
    server = await startTestServer()
    const result = (await server.database.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[]
    }
    databaseUrl = withDatabaseName(process.env.TEST_DATABASE_URL ?? '', result.rows[0]?.name ?? '')
    worker = startWorkerProcess({
      DATABASE_URL: databaseUrl,
      // The same files as the server's (local storage in its data folder).
      DATA_DIR: server.dataDir,
      APP_SECRET: server.config.appSecret ?? '',
      NODE_ENV: 'test',
      WORKER_CONCURRENCY: '3',
      WORKER_MAX_RUNNING_PER_USER: '2',
    })
    await waitForOutput(worker, '"msg":"worker started"')
  }, 120_000)
  afterAll(async () => {
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGKILL')
      await worker.exited
    }
    await server?.close()
  })

  it(`streams results within ${noticeBoundMs} ms of the worker recording them`, async () => {
    expect(server.deps.notifier.isCrossProcess()).toBe(true)
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)

    // The claim lock held: the worker hears of the jobs but cannot take them until every stream
    // has sent its first event, so each result comes while its stream is open.
    const gate = new pg.Client({ connectionString: databaseUrl })
    await gate.connect()
    let ids: string[]
    let streams: Promise<Map<string, number>>[]
    let openedAt = 0
    try {
      await gate.query('select pg_advisory_lock($1)', [claimLockId])
      ids = []
      for (let i = 0; i < 3; i++) {
        // With the colour given the copy needs no look at the photo: each job is as short as
        // before the writer read colours, and the timing below is the notices' alone.
        const response = await createGeneration(client, {
          mode: 'seo',
          imageAssetId,
          details: { name: 'Fincan', color: 'Kırmızı' },
        })
        expect(response.status).toBe(202)
        ids.push(((await response.json()) as { generation: { id: string } }).generation.id)
      }
      const opened: Promise<void>[] = []
      streams = ids.map((id) => {
        let onFirstEvent = () => {}
        opened.push(new Promise<void>((resolve) => (onFirstEvent = resolve)))
        return followStream(client, id, () => onFirstEvent())
      })
      await Promise.all(opened)
    } finally {
      openedAt = Date.now()
      await gate.query('select pg_advisory_unlock_all()').catch(() => {})
      await gate.end()
    }

    const arrivals = await Promise.all(streams)
    const rows = await server.database.db
      .select({ id: generations.id, status: generations.status, finishedAt: generations.finishedAt })
      .from(generations)
      .where(inArray(generations.id, ids))
    expect(rows).toHaveLength(3)
    for (const [i, id] of ids.entries()) {
      const recorded = rows.find((row) => row.id === id)
      expect(recorded?.status).toBe('succeeded')
      const arrivedAt = arrivals[i]?.get('succeeded') ?? Number.POSITIVE_INFINITY
      expect(arrivals[i]?.has('queued')).toBe(true)
      expect(arrivedAt - (recorded?.finishedAt?.getTime() ?? 0)).toBeLessThan(noticeBoundMs)
    }
    // The third job waited for the user's running cap (WORKER_MAX_RUNNING_PER_USER, 2 here),
    // not for a slot: it starts when the first finishes and says so, not at the worker's next look
    // (every 5 s while it hears other processes).
    const lastFinished = Math.max(...rows.map((row) => row.finishedAt?.getTime() ?? Number.POSITIVE_INFINITY))
    expect(lastFinished - openedAt).toBeLessThan(3000)
  }, 30_000)

  it('stops on SIGTERM, closing its connections', async () => {
    const listening = async () => {
      const result = (await server.database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name like 'vitrin notices %'`,
      )) as unknown as { rows: { n: number }[] }
      return Number(result.rows[0]?.n)
    }
    // The server's listening session and the worker's.
    expect(await listening()).toBe(2)
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
    expect(worker.output()).toContain('"msg":"worker stopped"')
    await expect.poll(listening).toBe(1)
  }, 30_000)
})
