import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'
import { median } from './lib/stats.ts'

// `npx tsx bench/start.ts`: `npm start` as an operator runs it (issue 29).
// - Warm start: from running `npm start` to the first 200 from `/`, with the builds and the data
//   folder reused (median of 3 restarts after one start that may build and makes the data).
// - Idle memory: the resident memory of every process of the `npm start` tree (npm, the server,
//   anything either left running), and of the server alone: 10 s after start, with the
//   segmentation model warmed in the background, and once the server has been quiet past the
//   model's idle minute (segmenter.ts ends its process then): the figure a quiet server sits at,
//   which the budget is for.
// npm's own start-up is counted: it is part of what the operator waits for.

const port = Number(process.env.BENCH_PORT ?? 4320)
const url = `http://127.0.0.1:${port}`
const restarts = 3
const warmIdleMs = 10_000
/** Past the segmentation process's idle minute (segmenter.ts idleMs), with a margin. */
const quietMs = 75_000

type Started = { child: ChildProcess; exited: Promise<void>; msToServe: number }

/** `npm start` in a process group of its own (npm leads it), once `/` answers 200. */
async function npmStart(dataDir: string): Promise<Started> {
  const started = performance.now()
  const child = spawn('npm', ['run', '--silent', 'start'], {
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    const ok = await fetch(`${url}/`)
      .then(async (response) => {
        await response.arrayBuffer()
        return response.status === 200
      })
      .catch(() => false)
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return { child, exited, msToServe: performance.now() - started }
}

/** Pid, resident memory (MB) and command of every live process in the group npm leads. */
function groupProcesses(started: Started): { pid: number; rssMb: number; command: string }[] {
  const table = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
  return table.split('\n').flatMap((line) => {
    const match = line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/)
    if (!match || Number(match[2]) !== started.child.pid || match[3]?.startsWith('Z')) return []
    const pid = Number(match[1])
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0)
      return [{ pid, rssMb: kb / 1024, command: match[4] ?? '' }]
    } catch {
      return []
    }
  })
}

/** SIGTERM to npm, as a supervisor stops it; waits until nothing of its group is left. */
async function stop(started: Started) {
  started.child.kill('SIGTERM')
  await started.exited
  for (let i = 0; groupProcesses(started).length > 0; i++) {
    if (i === 200) throw new Error('processes of the npm start group outlived npm')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const load = { ...machineLoad(), digits: 2 }
const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-bench-start-'))
const figures: Figure[] = [load]
try {
  const first = await npmStart(dataDir)
  await stop(first)
  figures.push({ name: 'first start to / served (may build; new data)', value: first.msToServe, unit: 'ms' })

  const times: number[] = []
  let last: Started | null = null
  for (let i = 0; i < restarts; i++) {
    if (last) await stop(last)
    last = await npmStart(dataDir)
    times.push(last.msToServe)
  }
  figures.push(
    {
      name: `warm start to / served (median of ${restarts})`,
      value: median(times),
      unit: 'ms',
      budget: 2000,
    },
    { name: 'warm start to / served (slowest)', value: Math.max(...times), unit: 'ms' },
  )
  if (last) {
    const started = performance.now()
    for (const [afterMs, label, budget] of [
      [warmIdleMs, 'with the model warm', undefined],
      [quietMs, 'quiet (the model process ended)', 250],
    ] as const) {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, afterMs - (performance.now() - started))),
      )
      const processes = groupProcesses(last)
      console.log(`after ${afterMs / 1000} s:`)
      for (const p of processes) console.log(`  ${p.pid} ${p.rssMb.toFixed(0).padStart(5)} MB  ${p.command}`)
      const server = processes.find((p) => !/^npm\b|\/npm-cli\.js|^sh |inference-worker/.test(p.command))
      figures.push(
        {
          name: `idle RSS of the npm start tree after ${afterMs / 1000} s, ${label}`,
          value: processes.reduce((sum, p) => sum + p.rssMb, 0),
          unit: 'MB',
          ...(budget === undefined ? {} : { budget }),
        },
        {
          name: `idle RSS of the server process alone after ${afterMs / 1000} s`,
          value: server?.rssMb ?? Number.NaN,
          unit: 'MB',
        },
        { name: 'processes in the npm start tree', value: processes.length, unit: '' },
      )
    }
    await stop(last)
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
figures.push({ ...machineLoad(), name: 'machine load average (1 min) at the end', digits: 2 })
process.exit(printFigures('npm start', figures) ? 0 : 1)
