import { Worker } from 'node:worker_threads'
import { workerEntry } from '#server/runtime-files.ts'
import { AppError } from '#shared/errors.ts'
import type { ReadReply, ReadRequest } from './list-reader-worker.ts'
import type { PhotoZipIndex } from './photo-zip.ts'
import type { ProductList, ReadProductListOptions } from './read-product-list.ts'

/**
 * Product lists are read on worker threads (decision 33): CSV decoding and parsing, the
 * workbook's ZIP checks and its streamed sheet all cost in proportion to the file, and on the
 * main thread a 10 MB file of empty lines stopped every request for minutes. A small pool of
 * threads reads one list each at a time; more wait their turn. Each read has a time budget and
 * each thread a memory budget: past either the thread is ended (a fresh one takes its place)
 * and the read fails with CATALOGUE_FILE_TOO_COMPLEX, as a list with too many lines does.
 */
export interface ListReader {
  /**
   * Reads a list on a thread: its bytes (which may be handed over to it, left empty here, so read
   * them first), or the file at `path`, which the thread reads itself (an upload received to disk
   * never passes through this thread's memory whole).
   */
  read(
    source: Buffer | { path: string },
    fileName: string,
    options?: ReadProductListOptions,
  ): Promise<ProductList>
  /**
   * Indexes the photo ZIP at `path` on a thread: its central directory (up to ten thousand
   * entries) walked, names decoded, bombs and unsafe paths marked; see photo-zip.ts.
   */
  indexPhotoZip(path: string): Promise<PhotoZipIndex>
  /** Ends the threads; a later read starts them again. */
  close(): Promise<void>
}

export type ListReaderOptions = {
  /** Threads reading at once (default 2: the import is rare, and the machine has other work). */
  threads?: number
  /** How long one read may take on its thread (default 15 s; a 1,000-row list takes well under 1 s). */
  timeoutMs?: number
  /** The heap one thread may grow to (default 512 MB); a read past it ends the thread. */
  maxHeapMb?: number
}

const workerUrl = workerEntry(new URL('./list-reader-worker.ts', import.meta.url))

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
type Job = {
  request: DistributiveOmit<ReadRequest, 'id'>
  resolve: (result: ProductList | PhotoZipIndex) => void
  reject: (error: Error) => void
}
type Slot = {
  thread: Worker
  /** Whether the thread has loaded its modules (a read's time is counted from then). */
  isReady: boolean
  job: (Job & { id: number; timer: NodeJS.Timeout | null }) | null
}

/** A read past its budget: a list too complex to read, or a ZIP that cannot be read. */
const tooComplex = (request: Job['request'], message: string) =>
  request.kind === 'list'
    ? new AppError('CATALOGUE_FILE_TOO_COMPLEX', `reading the list ${message}`)
    : new AppError('CATALOGUE_ZIP_INVALID', `indexing the photo ZIP ${message}`)

export function createListReader(options: ListReaderOptions = {}): ListReader {
  const threads = Math.max(1, options.threads ?? 2)
  const timeoutMs = options.timeoutMs ?? 15_000
  const maxHeapMb = options.maxHeapMb ?? 512
  const slots = new Set<Slot>()
  const waiting: Job[] = []
  let nextId = 1

  const startSlot = (): Slot => {
    const thread = new Worker(workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 64 },
    })
    const slot: Slot = { thread, isReady: false, job: null }
    slots.add(slot)
    thread.unref()
    thread.on('message', (reply: ReadReply) => {
      if ('ready' in reply) {
        slot.isReady = true
        if (slot.job) slot.job.timer = startTimer(slot, slot.job.id)
        return
      }
      const job = slot.job
      if (!job || job.id !== reply.id) return
      finish(slot)
      if (reply.ok) job.resolve('list' in reply ? reply.list : reply.photoZip)
      else if (reply.error.code)
        job.reject(new AppError(reply.error.code, reply.error.message, reply.error.details))
      else job.reject(new Error(`reading the list failed: ${reply.error.message}`))
      next()
    })
    const stopped = (error: Error) => {
      if (!slots.delete(slot)) return
      const job = slot.job
      slot.job = null
      if (job) {
        if (job.timer) clearTimeout(job.timer)
        const isMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
        job.reject(isMemory ? tooComplex(job.request, 'ran out of its memory budget') : error)
      }
      next()
    }
    thread.on('error', (error) => stopped(error))
    thread.on('exit', (code) => stopped(new Error(`the list reader stopped (exit code ${code})`)))
    return slot
  }

  const finish = (slot: Slot) => {
    if (slot.job?.timer) clearTimeout(slot.job.timer)
    slot.job = null
    slot.thread.unref()
  }

  const next = () => {
    while (waiting.length > 0) {
      let slot = [...slots].find((candidate) => candidate.job === null)
      if (!slot && slots.size < threads) slot = startSlot()
      if (!slot) return
      const job = waiting.shift() as Job
      const id = nextId++
      slot.job = { ...job, id, timer: null }
      if (slot.isReady) slot.job.timer = startTimer(slot, id)
      slot.thread.ref()
      const { request } = job
      const moved = request.kind === 'list' && !('path' in request.bytes) ? [request.bytes.buffer] : []
      slot.thread.postMessage({ ...request, id } satisfies ReadRequest, moved as ArrayBuffer[])
    }
  }

  const startTimer = (slot: Slot, id: number) =>
    setTimeout(() => {
      // A thread cannot be interrupted mid-parse; it is ended, and the next read starts another.
      const job = slot.job
      if (job?.id !== id) return
      slots.delete(slot)
      slot.job = null
      job.reject(tooComplex(job.request, 'ran past its time budget'))
      void slot.thread.terminate()
      next()
    }, timeoutMs)

  const run = <T extends ProductList | PhotoZipIndex>(request: Job['request']) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ request, resolve: resolve as Job['resolve'], reject })
      next()
    })

  return {
    read(source, fileName, readOptions = {}) {
      if (!Buffer.isBuffer(source)) {
        return run<ProductList>({
          kind: 'list',
          bytes: { path: source.path },
          fileName,
          options: readOptions,
        })
      }
      const bytes = source
      // The thread gets the bytes moved, not cloned. A buffer that is a whole memory block of its
      // own (as a received upload is) is handed over and left empty here; another is copied first.
      const isWhole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      const copy = isWhole ? new Uint8Array(bytes.buffer, 0, bytes.byteLength) : new Uint8Array(bytes)
      return run<ProductList>({ kind: 'list', bytes: copy, fileName, options: readOptions })
    },
    indexPhotoZip(path) {
      return run<PhotoZipIndex>({ kind: 'photoZip', path })
    },
    async close() {
      const closing = [...slots]
      slots.clear()
      for (const job of waiting.splice(0)) job.reject(new Error('the list reader was closed'))
      await Promise.all(
        closing.map(async (slot) => {
          if (slot.job) {
            if (slot.job.timer) clearTimeout(slot.job.timer)
            slot.job.reject(new Error('the list reader was closed'))
            slot.job = null
          }
          await slot.thread.terminate()
        }),
      )
    },
  }
}
