import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultModelPath } from '#server/segmentation/model-file.ts'
import { testEngine } from '#tests/support/test-database.ts'
import { projectFile } from './runtime-files.ts'

// The server as `npm start` runs it: bundled to JavaScript by scripts/build-server.ts and run
// by plain Node, with no TypeScript loader (docs/decisions/0046-server-built-to-javascript.md).
// Everything it finds through runtime-files.ts (migrations, the Quickstart, the model, the
// worker threads' scripts) must be found from the bundle too. Built into a folder of its own,
// two levels below the project root like dist/server, so dist/server itself is left alone.

const outDir = `dist/server-test-${process.pid}`
/** Plain Node: no loader passed on from the test runner. */
const plainEnv = { ...process.env, NODE_OPTIONS: '' }

describe.skipIf(testEngine === 'postgres')('the built server', () => {
  beforeAll(() => {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts', '--out-dir', outDir], {
      stdio: 'pipe',
    })
  }, 120_000)
  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  it('has every entry as JavaScript, and no TypeScript source left to load', () => {
    for (const entry of [
      'main',
      'inference-worker',
      'ocr-worker',
      'list-reader-worker',
      'pglite-thread-worker',
    ]) {
      expect(existsSync(join(outDir, `${entry}.js`)), entry).toBe(true)
    }
    expect(readFileSync(join(outDir, 'main.js'), 'utf8')).not.toMatch(/from ["'][^"']+\.ts["']/)
  })

  it('serves with plain Node: its database thread, migrations and the Quickstart found, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-built-server-'))
    let child: ChildProcess | null = null
    try {
      child = spawn(process.execPath, [join(outDir, 'main.js')], {
        env: {
          ...plainEnv,
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          PORT: '0',
          LOG_LEVEL: 'info',
          NODE_ENV: 'test',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)))
      const port = await new Promise<number>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString()
          const match = /Vitrin is listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)
          if (match) resolve(Number(match[1]))
        }
        child?.stdout?.on('data', onData)
        child?.stderr?.on('data', onData)
        void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output}`)))
      })
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
      // The Quickstart is read from docs/ into the OpenAPI document's description.
      const openapi = await (await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).text()
      expect(openapi).toContain('From a product photo to a finished image over the public API')
      child.kill('SIGTERM')
      expect(await exited, output).toBe(0)
      expect(output).toContain('"msg":"stopped"')
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  /**
   * The first message a bundled worker script sends (that `isAnswer` accepts, if given), after
   * `send` (if any) is posted to it.
   */
  async function firstReply(
    name: string,
    options: { workerData?: unknown; send?: unknown; isAnswer?: (message: unknown) => boolean } = {},
  ) {
    const worker = new Worker(new URL(`${name}.js`, `file://${projectFile(outDir)}/`), {
      workerData: options.workerData,
      env: plainEnv,
    })
    try {
      const reply = new Promise<unknown>((resolve, reject) => {
        const onMessage = (message: unknown) => {
          if (options.isAnswer && !options.isAnswer(message)) return
          worker.off('message', onMessage)
          resolve(message)
        }
        worker.on('message', onMessage)
        worker.once('error', reject)
        worker.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)))
      })
      if (options.send) worker.postMessage(options.send)
      return await reply
    } finally {
      await worker.terminate()
    }
  }

  it('starts each worker thread from its bundled script, with the packages it loads', async () => {
    expect(await firstReply('list-reader-worker')).toEqual({ id: 0, ready: true })
    // tesseract.js's worker script, loaded by ours, loads its WebAssembly core.
    const load = { jobId: 'load-1', workerId: 'test', action: 'load', payload: { options: {} } }
    expect(
      await firstReply('ocr-worker', {
        send: load,
        // Progress reports come first.
        isAnswer: (message) => (message as { status?: string }).status !== 'progress',
      }),
    ).toMatchObject({
      action: 'load',
      status: 'resolve',
    })
  }, 120_000)

  it("starts the segmentation model's process from its bundled script, as segmenter.ts does", async () => {
    const child = fork(join(outDir, 'inference-worker.js'), [], {
      execArgv: [],
      serialization: 'advanced',
      env: plainEnv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    try {
      const reply = new Promise<unknown>((resolve, reject) => {
        child.once('message', resolve)
        child.once('error', reject)
        child.once('exit', (code) => reject(new Error(`inference-worker exited with ${code}`)))
      })
      child.send({ model: new Uint8Array(readFileSync(defaultModelPath)), threads: 1, side: 320 })
      expect(await reply).toEqual({ type: 'ready' })
    } finally {
      child.kill('SIGKILL')
    }
  }, 120_000)
})
