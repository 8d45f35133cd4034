import { openBenchApp, serveBenchApp } from '../lib/app-server.ts'
import { cpuProfiler } from '../lib/cpu-profile.ts'

// Child process for bench/billing.ts: the real app billing through the fake Stripe server
// (bench/support/stripe-fake-server.ts), with no worker: generations are accepted and stay
// queued, so nothing but the requests the benchmark times uses this process's CPU.
//
//   billing-server.ts <appSettings as JSON>   the settings the Stripe fake reported
//
// Reports { port, pid } over IPC once listening; SIGTERM stops it and removes the temp folder.
// With BENCH_CPU_PROFILE=<file> it profiles its CPU from a 'profile-start' message to a
// 'profile-stop' one (each answered with '<type>-done') and writes the profile there.

const stripeSettings = JSON.parse(process.argv[2] ?? 'null') as Record<string, string> | null
if (!stripeSettings) throw new Error('usage: billing-server.ts <appSettings as JSON>')

const bench = await openBenchApp('billing', {
  ...stripeSettings,
  // PUT /api/test/usage puts a seller's plan quota at "used up".
  ENABLE_TEST_HOOKS: 'true',
  // Each seller signs up from an address of their own (X-Forwarded-For): sign-ups are limited
  // per address, and on PostgreSQL the count outlives a run.
  TRUST_PROXY: 'true',
  // The accepts are one client's and a few sellers': neither the per-minute limits nor the
  // queue's cap (no worker takes jobs off it) may refuse them.
  GENERATIONS_PER_MINUTE: '100000',
  GENERATIONS_PER_MINUTE_PER_CLIENT: '100000',
  MAX_QUEUED_PER_USER: '100000',
})
serveBenchApp(bench)

const profiler = cpuProfiler()
process.on('message', (message: unknown) => {
  const type = (message as { type?: unknown } | null)?.type
  if (type !== 'profile-start' && type !== 'profile-stop') return
  ;(type === 'profile-start' ? profiler.start() : profiler.stop()).then(
    () => process.send?.({ type: `${type}-done` }),
    (error: unknown) => bench.logger.error({ err: error }, 'bench profile failed'),
  )
})
