import * as ort from 'onnxruntime-node'
import { finishMask, toInputTensor } from './mask-math.ts'

// The process that runs the model, started by segmenter.ts (child_process.fork, with the
// 'advanced' serialization that carries typed arrays). onnxruntime-node's `run` returns a
// promise but does the whole inference synchronously on the calling thread (0.2–0.5 s here),
// so in the server's process it would stall every request; the JS after it (the guided filter
// on the full-resolution photo) runs here too. A process of its own rather than a thread: when
// it ends after its idle minute, everything it held goes back to the system, the runtime's
// library pages (23 MB, never unloaded from a process that loaded them) and the heap it freed
// included (docs/decisions/0050-idle-memory.md). Node strips the types itself, so this file
// and its imports use only erasable TypeScript.

/** The first message the process gets: the model (its input side declared) and how to run it. */
export type WorkerSetup = { model: Uint8Array; threads: number; side: number }
export type SegmentRequest = {
  id: number
  small: Uint8Array
  guide: Uint8Array
  width: number
  height: number
}
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'done'; id: number; mask: ReturnType<typeof finishMask> }
  | { type: 'error'; id: number; message: string }

if (!process.send) throw new Error('inference-worker.ts runs as a child process (see segmenter.ts)')
// The server gone (its end, or a crash) is this process's end too.
process.on('disconnect', () => process.exit(0))

/** An answer to the server; one that can no longer be given (the server gone) ends this process. */
const send = (message: WorkerMessage) =>
  new Promise<void>((resolve) => {
    if (!process.connected) process.exit(0)
    process.send?.(message, undefined, {}, (error) => {
      if (error) process.exit(0)
      resolve()
    })
  })

const setup = await new Promise<WorkerSetup>((resolve) =>
  process.once('message', (message) => resolve(message as WorkerSetup)),
)

let session: ort.InferenceSession
try {
  session = await ort.InferenceSession.create(setup.model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: setup.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    // The arena keeps the largest working set it ever needed (≈ 500 MB for this model) for the
    // life of the process; without it the memory of one inference is returned when it ends.
    enableCpuMemArena: false,
    // A memory pattern plans one block for all of an inference's tensors, which is held whole
    // for the run; without it each tensor is allocated when made and freed when last used.
    enableMemPattern: false,
    // 'all' adds layout changes (NCHWc) that cost ≈ 80 MB more at the peak of an inference and
    // were no faster on this 2-core machine.
    graphOptimizationLevel: 'extended',
    // Idle pool threads sleep instead of spinning: the cores are shared with sharp and HTTP.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  })
  send({ type: 'ready' })
} catch (error) {
  // Written to the channel before the process ends.
  await send({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  process.exit(1)
}

/**
 * A full collection after each answer (the process is forked with --expose-gc): the photo, the
 * model's answer and the mask's working planes (tens of MB for a large photo) are garbage by
 * then, and would otherwise still be held when the next inference takes its ≈ 160 MB.
 */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {})

const inputName = session.inputNames[0] as string
const outputName = session.outputNames[0] as string

process.on('message', async (message) => {
  const request = message as SegmentRequest
  try {
    const { side } = setup
    const input = new ort.Tensor('float32', toInputTensor(request.small, side), [1, 3, side, side])
    // Only the fused output (d0); the six side outputs are by-products of training.
    const output = await session.run({ [inputName]: input }, [outputName])
    const raw = output[outputName]?.data
    if (!(raw instanceof Float32Array) || raw.length !== side * side) {
      throw new Error('the model returned an unexpected output')
    }
    const mask = finishMask(raw, request.guide, request.width, request.height, side)
    await send({ type: 'done', id: request.id, mask })
  } catch (error) {
    await send({
      type: 'error',
      id: request.id,
      message: error instanceof Error ? error.message : String(error),
    })
  }
  collect()
})
