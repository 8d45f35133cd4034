import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type RunningServer = { url: string; msToServe: number; stop: () => Promise<void> }

/**
 * Runs `npm start` on a fresh data folder and waits until `/` is served; reports how long that took.
 * With `webDistDir` it runs the server alone on that build instead, so nothing is built into dist/.
 */
export async function startVitrin(
  port: number,
  env: Record<string, string> = {},
  options: { dataDir?: string; keepData?: boolean; webDistDir?: string } = {},
): Promise<RunningServer & { dataDir: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vitrin-bench-'))
  const started = performance.now()
  const [command, args]: [string, string[]] = options.webDistDir
    ? ['node_modules/.bin/tsx', ['src/server/main.ts']]
    : ['npm', ['start', '--silent']]
  const child: ChildProcess = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(options.webDistDir ? { WEB_DIST_DIR: options.webDistDir } : {}),
      ...env,
    },
    detached: true,
  })
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    const ok = await fetch(`${url}/`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  const msToServe = performance.now() - started
  return {
    url,
    dataDir,
    msToServe,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
      await exited
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
