import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type RunningServer = { url: string; msToServe: number; stop: () => Promise<void> }

/**
 * Runs what `npm start` runs (scripts/start.js) on a fresh data folder and waits until `/` is
 * served; reports how long that took. With `webDistDir` it runs the server alone on that build
 * instead, so nothing is built into dist/.
 */
export async function startVitrin(
  port: number,
  env: Record<string, string> = {},
  options: { dataDir?: string; keepData?: boolean; webDistDir?: string } = {},
): Promise<RunningServer & { dataDir: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vitrin-bench-'))
  const started = performance.now()
  const entry = options.webDistDir ? 'src/server/main.ts' : 'scripts/start.js'
  // node itself, not `npm start` or the tsx CLI: both are wrapper processes that can exit before
  // the server under them has, and a next start on the same data folder would then find the
  // folder still held. The child here is the server itself, so its exit is the server's.
  const args = options.webDistDir ? ['--import', 'tsx', entry] : [entry]
  const child: ChildProcess = spawn(process.execPath, args, {
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
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`)
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
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
