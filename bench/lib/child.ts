import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

// Servers a benchmark talks to run in their own Node processes (bench/support/*.ts), so that the
// load generator shares an event loop with none of them. They say they are ready over IPC.

/**
 * What a child process reports over IPC once it is listening: an app its port and pid, a fake
 * its URL and the settings an app needs to use it.
 */
export type ChildReady = { port?: number; pid?: number; url?: string; appSettings?: Record<string, string> }

export type Child = { process: ChildProcess; ready: ChildReady }

/** Starts a bench/support script in its own Node process and waits for its IPC "ready". */
export async function startChild(script: string, args: string[] = []): Promise<Child> {
  // node --import tsx, not the tsx CLI: the CLI is a wrapper process, and the pid a benchmark
  // samples (memory, CPU time) must be the server's own.
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const ready = await new Promise<ChildReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ChildReady))
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)))
    child.once('error', reject)
  })
  return { process: child, ready }
}

export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return
  const exited = new Promise((resolve) => child.process.once('exit', resolve))
  child.process.kill('SIGTERM')
  const force = setTimeout(() => child.process.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(force)
}

/** The origin of a child that reported a port (an app server). */
export function originOf(child: Child): string {
  if (!child.ready.port) throw new Error('the app child reported no port')
  return `http://127.0.0.1:${child.ready.port}`
}

/** Sends a child a message `{ type, ...fields }` and waits for its reply of type `replyType`; resolves with its `data`. */
export function askChild<T>(
  child: Child,
  message: { type: string; [field: string]: unknown },
  replyType: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => {
      child.process.off('message', onMessage)
      reject(new Error(`the child exited with ${code} before answering ${message.type}`))
    }
    const onMessage = (reply: unknown) => {
      const answer = reply as { type?: unknown; data?: T }
      if (answer.type !== replyType) return
      child.process.off('message', onMessage)
      child.process.off('exit', onExit)
      resolve(answer.data as T)
    }
    child.process.on('message', onMessage)
    child.process.once('exit', onExit)
    child.process.send(message)
  })
}

/** User plus system CPU time of a process so far, in ms (Linux clock ticks are 1/100 s). */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}
