import { spawn } from 'node:child_process'

/**
 * Runs a command with inherited output; resolves to its exit code. With `forwardSignals`, a
 * SIGINT or SIGTERM this process gets while the command runs is passed on to it (a supervisor
 * signals only the process it started), and this process then decides what to do.
 */
export function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; forwardSignals?: boolean } = {},
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, ...options.env },
    })
    const forward = (signal: NodeJS.Signals) => child.kill(signal)
    const forwarded: NodeJS.Signals[] = options.forwardSignals ? ['SIGINT', 'SIGTERM'] : []
    for (const signal of forwarded) process.on(signal, forward)
    const done = (code: number) => {
      for (const signal of forwarded) process.off(signal, forward)
      resolve(code)
    }
    child.on('error', () => done(127))
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)))
  })
}
