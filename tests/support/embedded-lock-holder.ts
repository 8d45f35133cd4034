import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { holdEmbeddedLock } from '#server/db/embedded-lock.ts'

// A real second process that holds a data folder's embedded lock and does nothing else. Run as
// `node --import tsx tests/support/embedded-lock-holder.ts <dataDir>`, it prints "held <pid>"
// once it holds the lock and keeps it until it is killed.

export type LockHolder = {
  pid: number
  /** Sends the signal and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>
}

/** Starts a holder of `dataDir`'s lock and resolves once it holds it. */
export async function startLockHolder(dataDir: string): Promise<LockHolder> {
  // node --import tsx, not the tsx CLI: the CLI is a wrapper process, and a signal must reach
  // the holder itself.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  let output = ''
  await new Promise<void>((done, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(`held ${child.pid}\n`)) {
        child.stdout?.off('data', onData)
        child.off('exit', onExit)
        done()
      }
    }
    const onExit = (code: number | null) => fail(new Error(`the lock holder exited with ${code}:\n${output}`))
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once('exit', onExit)
  })
  const pid = child.pid as number
  return {
    pid,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dataDir = process.argv[2]
  if (!dataDir) throw new Error('usage: embedded-lock-holder.ts <dataDir>')
  await holdEmbeddedLock(dataDir)
  process.stdout.write(`held ${process.pid}\n`)
  // The lock does not keep a process alive; this does, until the test kills it.
  setInterval(() => {}, 60_000)
}
