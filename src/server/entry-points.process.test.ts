import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { holdEmbeddedLock } from '#server/db/embedded-lock.ts'
import { createPostgresDatabase } from '#tests/support/postgres.ts'
import { testEngine } from '#tests/support/test-database.ts'

// The server and the worker as operators start them: through `npm start` and `npm run worker`,
// stopped the way systemd, Docker and Kubernetes stop a service, with SIGTERM to the process
// they started (npm). Nothing may live on after npm has exited.

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function npmRun(script: string, env: Record<string, string>): Started {
  // A process group of its own, led by npm: everything it starts stays in the group, even once
  // orphaned, so the group shows what outlived npm.
  const child = spawn('npm', ['run', '--silent', script], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
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

function waitForOutput(started: Started, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = started.output().match(pattern)
      if (!match) return
      cleanup()
      resolve(match)
    }
    const onExit = () => {
      cleanup()
      reject(new Error(`exited before printing ${pattern}:\n${started.output()}`))
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

/** The processes (pid and command) still running in the process group npm led. */
function processesOf(started: Started): string[] {
  const group = started.child.pid
  const table = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
  return (
    table
      .split('\n')
      .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
      // A zombie (Z) has ended already; it waits only for its new parent to note that.
      .filter((match) => match !== null && Number(match[2]) === group && !match[3]?.startsWith('Z'))
      .map((match) => `${match?.[1]} ${match?.[4]}`)
  )
}

/** Ends whatever a failed run left behind, so it holds no port or data folder for later tests. */
function killLeftovers(started: Started) {
  if (processesOf(started).length > 0) process.kill(-(started.child.pid as number), 'SIGKILL')
}

/** Whether something accepts connections on the port. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Signals npm alone, as a supervisor does, and waits for npm to exit; its exit code. */
async function stopThroughNpm(started: Started, signal: NodeJS.Signals): Promise<number | null> {
  // npm and what it started: at least the server below it.
  expect(processesOf(started).length).toBeGreaterThan(1)
  started.child.kill(signal)
  return await started.exited
}

describe.skipIf(testEngine === 'postgres')('npm start', () => {
  const dirs: string[] = []
  const runs: Started[] = []
  afterEach(() => {
    for (const run of runs.splice(0)) killLeftovers(run)
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  async function startServer(dataDir: string) {
    const started = npmRun('start', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', NODE_ENV: 'test' })
    runs.push(started)
    // The first start may build the web app (reused later while its sources are unchanged).
    const [, port] = await waitForOutput(started, /Vitrin is listening on http:\/\/127\.0\.0\.1:(\d+)/)
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(health.status).toBe(200)
    return { started, port: Number(port) }
  }

  it('stops the server on SIGTERM to npm: nothing left running, the data folder free, a restart works', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-npm-start-'))
    dirs.push(dataDir)
    const { started, port } = await startServer(dataDir)

    expect(await stopThroughNpm(started, 'SIGTERM'), started.output()).toBe(0)
    expect(started.output()).toContain('"signal":"SIGTERM"')
    expect(started.output()).toContain('"msg":"stopped"')
    // No orphan: every process npm had started is gone, and nothing answers on the port.
    expect(processesOf(started)).toEqual([])
    expect(await isListening(port)).toBe(false)
    // The embedded database's lock is free: this process can take it (and gives it back).
    const lock = await holdEmbeddedLock(dataDir)
    await lock.release()

    // And the next start on the same data folder is not refused.
    const again = await startServer(dataDir)
    expect(await stopThroughNpm(again.started, 'SIGTERM'), again.started.output()).toBe(0)
    expect(processesOf(again.started)).toEqual([])
  }, 300_000)

  it('stops the server on SIGINT to npm (Ctrl-C) the same way', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-npm-start-'))
    dirs.push(dataDir)
    const { started, port } = await startServer(dataDir)

    expect(await stopThroughNpm(started, 'SIGINT'), started.output()).toBe(0)
    expect(started.output()).toContain('"signal":"SIGINT"')
    expect(started.output()).toContain('"msg":"stopped"')
    expect(processesOf(started)).toEqual([])
    expect(await isListening(port)).toBe(false)
    const lock = await holdEmbeddedLock(dataDir)
    await lock.release()
  }, 200_000)
})

describe.skipIf(testEngine !== 'postgres')('npm run worker', () => {
  it('stops the worker on SIGTERM to npm, with nothing left running', async () => {
    const url = process.env.TEST_DATABASE_URL ?? ''
    const database = await createPostgresDatabase(url, inject('postgresTemplate') ?? '')
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-npm-worker-'))
    let worker: Started | null = null
    try {
      worker = npmRun('worker', {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        APP_SECRET: 'test-secret-test-secret-test-secret-0123',
        NODE_ENV: 'test',
      })
      await waitForOutput(worker, /"msg":"worker started"/)
      expect(await stopThroughNpm(worker, 'SIGTERM'), worker.output()).toBe(0)
      expect(worker.output()).toContain('"msg":"stopped"')
      expect(processesOf(worker)).toEqual([])
    } finally {
      if (worker) killLeftovers(worker)
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
