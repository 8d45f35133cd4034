import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { printFigures } from './lib/report.ts'

// `npm run bench` (part): GET /api/usage with a session at 50 concurrent connections, next to
// a bare Hono endpoint measured in the same run. Budget: at least half the bare throughput.
// Servers run in their own processes so the load generator does not share their event loop.

const connections = 50
const seconds = Number(process.env.BENCH_SECONDS ?? 10)

async function startChild(mode: 'app' | 'bare'): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('tsx', ['bench/support/usage-server.ts', mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  for await (const line of lines) {
    const { port } = JSON.parse(line) as { port: number }
    return { child, url: `http://127.0.0.1:${port}` }
  }
  throw new Error(`${mode} server did not start`)
}

async function stopChild(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

async function load(url: string, headers: Record<string, string> = {}) {
  // A short warm-up, then the measured run.
  await autocannon({ url, connections, duration: 2, headers })
  const result = await autocannon({ url, connections, duration: seconds, headers })
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { rps: result.requests.average, p99: result.latency.p99 }
}

const bare = await startChild('bare')
const bareResult = await load(bare.url)
await stopChild(bare.child)

const app = await startChild('app')
const signUp = await fetch(`${app.url}/api/auth/sign-up`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }),
})
const cookie = signUp.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ')
await fetch(`${app.url}/api/billing/subscription`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie },
  body: JSON.stringify({ planId: 'growth' }),
})
const usageResult = await load(`${app.url}/api/usage`, { cookie })
await stopChild(app.child)

const ratio = usageResult.rps / bareResult.rps
const ok = printFigures(
  `GET /api/usage with a session, ${connections} connections, ${seconds} s (embedded database)`,
  [
    { name: 'bare Hono endpoint: requests/s', value: bareResult.rps, unit: 'req/s' },
    { name: 'bare Hono endpoint: p99 latency', value: bareResult.p99, unit: 'ms' },
    { name: 'GET /api/usage: requests/s', value: usageResult.rps, unit: 'req/s' },
    { name: 'GET /api/usage: p99 latency', value: usageResult.p99, unit: 'ms' },
    { name: 'usage throughput as % of bare (aim ≥ 50)', value: ratio * 100, unit: '%' },
  ],
)
process.exit(ok ? 0 : 1)
