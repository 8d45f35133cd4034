import { type ChildProcess, fork } from 'node:child_process'
import { once } from 'node:events'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { workerEntry } from '#server/runtime-files.ts'
import type { SegmentRequest, WorkerMessage, WorkerSetup } from './inference-worker.ts'
import { type FinishedMask, modelSide } from './mask-math.ts'
import { defaultModelPath, readVerifiedModel, SegmentationModelError } from './model-file.ts'
import { withInputSide } from './model-graph.ts'

// Product segmentation with U²-Netp: image → full-resolution alpha mask, the model's confidence
// and the product's share of the picture. One model per server, loaded on first use (or at
// start, through ready()), run in a child process (inference-worker.ts) so the event loop never
// waits for it, one photo at a time. The process (and the 160–370 MB the runtime holds) ends
// after an idle minute, and all of it goes back to the system, so a quiet server returns to its
// idle memory; the next photo starts it again. (A worker thread, as before, left the runtime's
// library pages and its freed heap in the server: docs/decisions/0050-idle-memory.md.)

/** Decoded pixels, 3 (RGB) or 4 (RGBA) bytes each. Transparent parts count as white. */
export type SegmentationInput = { data: Uint8Array; width: number; height: number; channels: 3 | 4 }

/** The mask at the input's resolution (0–255 per pixel) and what it says; see mask-math.ts. */
export type Segmentation = FinishedMask & { width: number; height: number }

/**
 * `onQueued`: called once the photo has been handed to the model's process, so a caller can do
 * its own work on this thread meanwhile without holding the request up.
 */
export type SegmentOptions = { onQueued?: () => void }

export interface Segmenter {
  /** Checks and loads the model; rejects with SegmentationModelError when it cannot be used. */
  ready(): Promise<void>
  segment(image: SegmentationInput, options?: SegmentOptions): Promise<Segmentation>
  /** Stops the model's process; a later call starts it again. */
  close(): Promise<void>
}

export type SegmenterOptions = {
  /** The ONNX file (the vendored assets/models/u2netp.onnx by default). */
  modelPath?: string
  /** The SHA-256 the file must have (the vendored model's by default). */
  sha256?: string
  /** Threads inside one inference: two cores here, and one inference at a time. */
  threads?: number
  /**
   * The side of the square the model sees the photo at: modelSide (320, what it was trained at)
   * by default. Smaller sides need less memory but find products worse (docs/decisions/0019).
   */
  side?: number
  /** Photos segmented at once; more wait their turn (each inference holds 160–200 MB briefly). */
  maxConcurrent?: number
  /** How long the process stays after its last photo (a minute by default; Infinity keeps it). */
  idleMs?: number
}

/** A segmenter whose process can be watched (tests and the memory bench). */
export type ThreadedSegmenter = Segmenter & {
  /** Whether the model's process is started or starting (false once it ended after idling). */
  isRunning(): boolean
}

/** The sanity checks a mask must pass before a product is cut out along it. */
export const credibleMask = {
  minShare: 0.01,
  maxShare: 0.95,
  /** Most of the border inside the mask means the "product" is the scene itself. */
  maxBorderCoverage: 0.5,
  /** Measured: 0.976–0.997 on real and evaluation photos, 0.9 on bare stripes, ≈ 0.03 on noise. */
  minConfidence: 0.94,
} as const

/** Whether a product found by the model is believable enough to cut out. */
export function isCredible(mask: Pick<Segmentation, 'foregroundShare' | 'borderCoverage' | 'confidence'>) {
  return (
    mask.foregroundShare >= credibleMask.minShare &&
    mask.foregroundShare <= credibleMask.maxShare &&
    mask.borderCoverage <= credibleMask.maxBorderCoverage &&
    mask.confidence >= credibleMask.minConfidence
  )
}

const workerPath = fileURLToPath(workerEntry(new URL('./inference-worker.ts', import.meta.url)))

export function createSegmenter(options: SegmenterOptions = {}): ThreadedSegmenter {
  const modelPath = options.modelPath ?? defaultModelPath
  const idleMs = options.idleMs ?? 60_000
  const threads = options.threads ?? Math.max(1, Math.min(2, availableParallelism()))
  const maxConcurrent = Math.max(1, options.maxConcurrent ?? 1)
  const side = options.side ?? modelSide

  type Job = { resolve: (mask: FinishedMask) => void; reject: (error: Error) => void }
  /** A started model process and the requests it has not answered yet. */
  type Running = { child: ChildProcess; pending: Map<number, Job> }
  // The process being started or running; `token` tells a stale one's exit from the current one's.
  // `child` from the moment it is forked, so that close() can end it while the model still loads.
  let current: { token: object; started: Promise<Running>; child?: ChildProcess } | null = null
  let nextId = 1
  let running = 0
  const waiting: (() => void)[] = []

  const start = async (token: object): Promise<Running> => {
    const bytes = await readVerifiedModel(modelPath, options.sha256)
    return new Promise<Running>((resolve, reject) => {
      let model: Uint8Array
      try {
        // A copy the worker can own, declaring the input size it will be run at.
        model = withInputSide(bytes, side)
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        reject(
          new SegmentationModelError(
            modelPath,
            `The segmentation model at ${modelPath} cannot be used: ${reason}`,
          ),
        )
        return
      }
      const setup: WorkerSetup = { model, threads, side }
      // Node without this process's flags (an inspector port, a loader), with gc() exposed (the
      // worker collects after each answer), the same environment; its output is the server's.
      // 'advanced' carries typed arrays as they are.
      const child = fork(workerPath, [], {
        execArgv: ['--expose-gc'],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
      if (current?.token === token) current.child = child
      const pending = new Map<number, Job>()
      let isReady = false
      child.on('message', (received) => {
        const message = received as WorkerMessage
        if (message.type === 'ready') {
          isReady = true
          // An idle model process does not keep the server alive; a request in flight refs it.
          unref(child)
          resolve({ child, pending })
        } else if (message.type === 'failed') {
          reject(
            new SegmentationModelError(
              modelPath,
              `The segmentation runtime could not load the model at ${modelPath}: ${message.message}`,
            ),
          )
        } else {
          const job = pending.get(message.id)
          if (!job) return
          pending.delete(message.id)
          if (pending.size === 0) unref(child)
          if (message.type === 'done') job.resolve(message.mask)
          else job.reject(new Error(`segmentation failed: ${message.message}`))
        }
      })
      const stop = (error: Error) => {
        if (current?.token === token) current = null
        if (!isReady) {
          reject(
            new SegmentationModelError(
              modelPath,
              `The segmentation runtime could not start: ${error.message}`,
              {
                cause: error,
              },
            ),
          )
        }
        for (const job of pending.values()) job.reject(error)
        pending.clear()
      }
      child.on('error', (error) => stop(error))
      child.on('exit', (code, signal) =>
        stop(
          new Error(
            `the segmentation process stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`,
          ),
        ),
      )
      child.send(setup)
    })
  }

  const worker = (): Promise<Running> => {
    if (current) return current.started
    const token = {}
    const started = start(token)
    current = { token, started }
    // A failed start is not remembered: the next call checks the file again.
    started.catch(() => {
      if (current?.token === token) current = null
    })
    return started
  }

  const acquire = async () => {
    if (running < maxConcurrent) {
      running++
      return
    }
    await new Promise<void>((resolve) => waiting.push(resolve))
  }
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }

  let idleTimer: NodeJS.Timeout | null = null
  const stayAwake = () => {
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = null
  }
  /** Ends the process once nothing has used it for idleMs. */
  const sleepWhenIdle = () => {
    stayAwake()
    if (running > 0 || !Number.isFinite(idleMs)) return
    idleTimer = setTimeout(() => {
      idleTimer = null
      if (running === 0 && waiting.length === 0) void stopThread()
    }, idleMs)
    idleTimer.unref()
  }

  const stopThread = async () => {
    const closing = current
    current = null
    if (!closing) return
    // A process still loading the model is ended too: its start then fails, as nothing waits for it.
    if (closing.child) await end(closing.child)
    const started = await closing.started.catch(() => null)
    if (started) await end(started.child)
  }

  return {
    isRunning: () => current !== null,

    async ready() {
      stayAwake()
      try {
        await worker()
      } finally {
        sleepWhenIdle()
      }
    },

    async segment(image, options = {}) {
      stayAwake()
      await acquire()
      try {
        const { child, pending } = await worker()
        const { width, height } = image
        const flat = () =>
          sharp(image.data, { raw: { width, height, channels: image.channels } }).flatten({
            background: '#ffffff',
          })
        const [small, guide] = await Promise.all([
          flat().resize(side, side, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer(),
          image.channels === 3 ? image.data : flat().raw().toBuffer(),
        ])
        const id = nextId++
        const request: SegmentRequest = { id, small, guide, width, height }
        const mask = await new Promise<FinishedMask>((resolve, reject) => {
          pending.set(id, { resolve, reject })
          ref(child)
          // Serialized into the pipe here: the buffers stay the caller's.
          child.send(request)
          options.onQueued?.()
        })
        return { ...mask, width, height }
      } finally {
        release()
        sleepWhenIdle()
      }
    },

    async close() {
      stayAwake()
      await stopThread()
    },
  }
}

/** Whether the model's process keeps the server alive: only while a photo is in it. */
function ref(child: ChildProcess) {
  child.ref()
  child.channel?.ref()
}
function unref(child: ChildProcess) {
  child.unref()
  child.channel?.unref()
}

/** Ends the model's process and waits until it has. */
async function end(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  // Held until it has ended, even by a process with nothing else to wait for.
  ref(child)
  child.kill('SIGKILL')
  await exited
}

const shared = new Map<string, Segmenter>()

/**
 * One segmenter per model file for the tests and benches of one process, so that the studios,
 * measurers and servers they build share a model as a server's do. The server never calls it:
 * main.ts and worker-main.ts make theirs with createSegmenter and pass it in.
 */
export function sharedSegmenter(modelPath: string = defaultModelPath): Segmenter {
  let segmenter = shared.get(modelPath)
  if (!segmenter) {
    segmenter = createSegmenter({ modelPath })
    shared.set(modelPath, segmenter)
  }
  return segmenter
}
