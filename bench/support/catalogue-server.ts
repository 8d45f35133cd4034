import { sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { claimJobs } from '#server/job-queue/claim-jobs.ts'
import { openBenchApp, serveBenchApp } from '../lib/app-server.ts'
import { cpuProfiler } from '../lib/cpu-profile.ts'
import type { ClaimTiming } from './catalogue-settings.ts'

// Child process for bench/catalogue-import.ts: the real app over real HTTP, with no worker (a
// started batch's jobs stay queued, so nothing but the import's requests uses this process's
// CPU), on an embedded PGlite database in a temp folder or on PostgreSQL (BENCH_DATABASE_URL).
// Reports { port, pid } over IPC once listening; SIGTERM stops it and removes the temp folder.
// Messages:
//   { type: 'claim', runs }  times the worker's claim as a worker of this configuration runs it,
//                            `runs` times, each in a transaction rolled back afterwards (so each
//                            sees the same due rows); answered { type: 'claimed', data: ClaimTiming }
//   'profile-start' / 'profile-stop' (with BENCH_CPU_PROFILE=<file>): profiles this process's
//                            CPU in between and writes the profile there; answered '<type>-done'

const bench = await openBenchApp('catalogue', {
  // Sign-ups and uploads of the warm-up and the baseline job come from one client address.
  UPLOADS_PER_MINUTE: '1000',
  GENERATIONS_PER_MINUTE: '1000',
})
const { config, database, deps, logger } = bench

class RolledBack extends Error {}

async function timeClaims(runs: number): Promise<ClaimTiming> {
  const due = (await database.db.execute(
    sql`select count(*)::int as due from generations where status = 'queued' and run_after <= now()`,
  )) as unknown as { rows: { due: number }[] }
  const timings: number[] = []
  let claimed = 0
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    await database.db
      .transaction(async (tx) => {
        const jobs = await claimJobs(
          { db: tx as unknown as Db, notifier: deps.notifier },
          {
            workerId: 'bench-claim',
            limit: config.worker.concurrency,
            maxRunningPerUser: config.worker.maxRunningPerUser,
            leaseMs: 30_000,
            isSerialized: database.kind === 'postgres',
          },
        )
        claimed = jobs.length
        throw new RolledBack()
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error
      })
    timings.push(performance.now() - started)
  }
  return { dueRows: due.rows[0]?.due ?? 0, claimed, timings }
}

const profiler = cpuProfiler()
process.on('message', (message: unknown) => {
  const { type, runs } = (message ?? {}) as { type?: unknown; runs?: unknown }
  if (type === 'claim') {
    timeClaims(typeof runs === 'number' ? runs : 5).then(
      (data) => process.send?.({ type: 'claimed', data }),
      (error: unknown) => logger.error({ err: error }, 'bench claim failed'),
    )
  } else if (type === 'profile-start' || type === 'profile-stop') {
    ;(type === 'profile-start' ? profiler.start() : profiler.stop()).then(
      () => process.send?.({ type: `${type}-done` }),
      (error: unknown) => logger.error({ err: error }, 'bench profile failed'),
    )
  }
})

serveBenchApp(bench)
