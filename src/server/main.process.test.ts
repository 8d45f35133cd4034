import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

// The server as an operator runs it: a real process, real signals, real exit codes.

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function startServer(env: Record<string, string>): Started {
  // node --import tsx, not the tsx CLI: the CLI is a wrapper process, and signals (SIGKILL
  // above all) must reach the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

function waitForLine(started: Started, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = started.output().match(pattern)
      if (match) {
        cleanup()
        resolve(match)
      }
    }
    const onExit = () => {
      cleanup()
      reject(new Error(`server exited before printing ${pattern}:\n${started.output()}`))
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

describe('the server process', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('starts on an empty data folder, says where it listens, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-main-'))
    dirs.push(dataDir)
    const server = startServer({ DATA_DIR: dataDir })
    const [, url] = await waitForLine(server, /Vitrin is listening on (http:\/\/[^"\s]+)/)
    const port = new URL(url ?? '').port
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
    expect(await ready.json()).toEqual({ status: 'ready', database: 'pglite' })

    // The generated secret is readable by the owner only.
    expect(statSync(join(dataDir, 'secret')).mode & 0o777).toBe(0o600)

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output()).toContain('"msg":"stopped"')
  })

  it('refuses a second server on the same data folder, and is not blocked by one killed with SIGKILL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-main-'))
    dirs.push(dataDir)
    const first = startServer({ DATA_DIR: dataDir })
    await waitForLine(first, /Vitrin is listening on/)

    const second = startServer({ DATA_DIR: dataDir })
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain(`the data folder ${dataDir} is in use by process ${first.child.pid}`)

    // A crash: nothing runs on the way out, so whatever marks the folder stays behind.
    first.child.kill('SIGKILL')
    await first.exited
    const third = startServer({ DATA_DIR: dataDir })
    await waitForLine(third, /Vitrin is listening on/)
    third.child.kill('SIGTERM')
    expect(await third.exited).toBe(0)
  }, 120_000)

  it('refuses to start with bad settings, listing every one, and exits 1', async () => {
    const server = startServer({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'postgres://db/vitrin' })
    expect(await server.exited).toBe(1)
    const output = server.output()
    expect(output).toContain('PORT')
    expect(output).toContain('LOG_LEVEL')
    expect(output).toContain('APP_SECRET')
  })

  it('prints the address and the unused access code on every start, and runs access-codes while it serves', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-main-'))
    dirs.push(dataDir)
    const first = startServer({ DATA_DIR: dataDir })
    const [, url, code] = await waitForLine(first, /Vitrin is ready: (http:\S+)\n\s+Access code: (\S+)/)
    expect(first.output()).toContain(`enter it at ${url}/access`)

    // The operator's commands go through the running server, which holds the embedded database.
    const cli = (...args: string[]) =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', 'src/server/features/access/access-codes.cli.ts', ...args],
        {
          env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
          encoding: 'utf8',
        },
      )
    const listed = cli('list')
    expect(listed.stderr).toBe('')
    expect(listed.status).toBe(0)
    expect(listed.stdout).toMatch(new RegExp(`^${code}\\s+active\\s+0 uses\\s+no expiry\\s+bootstrap`, 'm'))
    expect(cli('create', 'launch').stdout.trim()).toBe('LAUNCH')
    expect(cli('list').stdout).toContain('LAUNCH')
    const refused = cli('create', '--max', '0')
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain('--max: "0" is not a whole number')

    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)

    // Still unused: the next start shows the same code again.
    const second = startServer({ DATA_DIR: dataDir })
    const [, , again] = await waitForLine(second, /Vitrin is ready: (http:\S+)\n\s+Access code: (\S+)/)
    expect(again).toBe(code)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 120_000)
})
