import { spawn } from 'node:child_process'

/** Runs a command with inherited output; resolves to its exit code. */
export function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, ...options.env },
    })
    child.on('error', () => resolve(127))
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}
