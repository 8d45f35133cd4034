import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { apiOf, type TestServer } from './test-server.ts'

/** The event-loop delay the app process saw between lag-start and lag-stop (app-process.ts). */
export type EventLoopLag = { p50Ms: number; p99Ms: number; maxMs: number; samples: number }

export type AppProcess = Pick<TestServer, 'url' | 'api'> & {
  pid: number
  /** Starts measuring the app process's event-loop delay; `stop` answers what it saw since. */
  measureLag: () => Promise<{ stop: () => Promise<EventLoopLag> }>
  close: () => Promise<void>
}

const script = fileURLToPath(new URL('./app-process.ts', import.meta.url))

function ask<T>(child: ChildProcess, message: string, replyType: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => {
      child.off('message', onMessage)
      reject(new Error(`the app process exited with ${code} before answering ${message}`))
    }
    const onMessage = (reply: unknown) => {
      const answer = reply as { type?: unknown; data?: T }
      if (answer.type !== replyType) return
      child.off('message', onMessage)
      child.off('exit', onExit)
      resolve(answer.data as T)
    }
    child.on('message', onMessage)
    child.once('exit', onExit)
    child.send(message)
  })
}

/**
 * Starts the real app in a Node process of its own (app-process.ts) with `settings`; with
 * `withWorker`, a worker with the configured providers (the offline studio by default) runs in it.
 */
export async function startAppProcess(
  settings: Record<string, string> = {},
  options: { withWorker?: boolean } = {},
): Promise<AppProcess> {
  // node --import tsx, not the tsx CLI: no wrapper process between this one and the app.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, JSON.stringify(settings), ...(options.withWorker ? ['worker'] : [])],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  )
  const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number; pid: number }))
    child.once('exit', (code) => reject(new Error(`the app process exited with ${code} before it was ready`)))
    child.once('error', reject)
  })
  const url = `http://127.0.0.1:${ready.port}`
  return {
    url,
    api: apiOf(url),
    pid: ready.pid,
    async measureLag() {
      await ask(child, 'lag-start', 'lag-started')
      return { stop: () => ask<EventLoopLag>(child, 'lag-stop', 'lag') }
    },
    async close() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
