import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import type { CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import { makeInputPhoto, signUp, uploadAsset } from './lib/app-client.ts'
import { machineLoad, printFigures } from './lib/report.ts'

// `npm run bench` (part): GET /v1/generations/{id} with an API key at 50 connections, on
// PostgreSQL, beside a bare Hono endpoint doing the same single-row read with no authentication,
// in one run (issue "Public API"). Aim: at least half the bare throughput. The key's lookup, the
// plan check and the per-key rate-limit count are all in the measured path. Servers run in their
// own processes so the load generator does not share their event loop.

const connections = 50
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const aimRatio = 0.5

if (!process.env.BENCH_DATABASE_URL) {
  console.log(
    '\n/v1 read: skipped. Measured on PostgreSQL: set BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/vitrin_bench',
  )
  process.exit(0)
}

async function startServer(args: string[]): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/v1-read-server.ts', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  for await (const line of lines) {
    const { port } = JSON.parse(line) as { port: number }
    return { child, origin: `http://127.0.0.1:${port}` }
  }
  throw new Error(`the ${args[0]} server did not start`)
}

async function stopServer(child: ChildProcess) {
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

async function call(origin: string, path: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(`${origin}${path}`, init)
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
  return response.json()
}

const load1 = machineLoad()
// A Pro seller with a key and one generation (queued: no worker runs).
const app = await startServer(['app'])
const cookie = await signUp(app.origin)
const json = { 'content-type': 'application/json', cookie }
await call(app.origin, '/api/billing/subscription', {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ planId: 'pro' }),
})
const { secret: key } = (await call(app.origin, '/api/api-keys', {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ name: 'bench' }),
})) as CreateApiKeyResponse
const imageAssetId = await uploadAsset(app.origin, cookie, await makeInputPhoto(), 'bench.jpg')
const { generation } = (await call(app.origin, '/api/generations', {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ mode: 'seo', imageAssetId }),
})) as { generation: { id: string } }
const v1 = await load(`${app.origin}/v1/generations/${generation.id}`, { authorization: `Bearer ${key}` })
await stopServer(app.child)

const bare = await startServer(['bare', generation.id])
const bareResult = await load(bare.origin)
await stopServer(bare.child)

const ratio = v1.rps / bareResult.rps
const ok = printFigures(
  `GET /v1/generations/{id} with an API key, ${connections} connections, ${seconds} s (PostgreSQL)`,
  [
    load1,
    { name: 'bare Hono endpoint, same row read: requests/s', value: bareResult.rps, unit: 'req/s' },
    { name: 'bare Hono endpoint: p99 latency', value: bareResult.p99, unit: 'ms' },
    { name: 'GET /v1/generations/{id}: requests/s', value: v1.rps, unit: 'req/s' },
    { name: 'GET /v1/generations/{id}: p99 latency', value: v1.p99, unit: 'ms' },
    { name: '/v1 throughput ÷ bare', value: ratio, unit: '×', digits: 2, atLeast: aimRatio },
  ],
)
process.exit(ok ? 0 : 1)
