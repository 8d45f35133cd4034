import { dirname, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { QueryOptions, Results } from '@electric-sql/pglite'
import { ensurePrivateDir } from '#server/private-dir.ts'
import { workerEntry } from '#server/runtime-files.ts'
import type { ThreadReply, ThreadRequest, ThreadStart } from './pglite-thread-protocol.ts'

/** A request before it gets its id (Omit on each member of the union). */
type Unsent = ThreadRequest extends infer R ? (R extends ThreadRequest ? Omit<R, 'id'> : never) : never
type Statement = Extract<Unsent, { op: 'query' | 'exec' }>

/** The part of PGlite's API the query layer uses: statements and transactions. */
export type PgliteClient = {
  readonly waitReady: Promise<void>
  readonly closed: boolean
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>
  exec(sql: string): Promise<Results[]>
  transaction<T>(run: (tx: PgliteTransactionClient) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export type PgliteTransactionClient = Pick<PgliteClient, 'query' | 'exec'>

/**
 * The embedded database (PGlite, Postgres compiled to WebAssembly) on a thread of its own.
 * PGlite runs each statement synchronously on the thread that owns it; on the main thread,
 * every statement stopped HTTP, JSON and provider traffic for its whole length. Here the main
 * thread only posts statements and reads answers, and the database works on another core.
 *
 * Statements run in the order they are sent, one at a time, as in PGlite itself; a transaction
 * holds PGlite's lock on the database thread until it commits or rolls back.
 */
export function openPgliteThread(start: ThreadStart): PgliteClient {
  const worker = new Worker(workerEntry(new URL('./pglite-thread-worker.ts', import.meta.url)), {
    workerData: start,
    ...(start.kind === 'dump' ? { transferList: [start.dump] } : {}),
  })
  let nextId = 1
  let nextTxId = 1
  let isClosed = false
  let failure: Error | null = null
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let ready: { resolve: () => void; reject: (error: Error) => void } = { resolve: () => {}, reject: () => {} }
  const waitReady = new Promise<void>((resolve, reject) => {
    ready = { resolve, reject }
  })

  const toError = (reply: Extract<ThreadReply, { ok: false }>) =>
    Object.assign(new Error(reply.message), reply.fields)

  worker.on('message', (reply: ThreadReply) => {
    if (reply.id === 0) {
      if (reply.ok) ready.resolve()
      else ready.reject(toError(reply))
      return
    }
    const waiting = pending.get(reply.id)
    if (!waiting) return
    pending.delete(reply.id)
    if (reply.ok) waiting.resolve(reply.result)
    else waiting.reject(toError(reply))
  })
  const failAll = (error: Error) => {
    failure = error
    ready.reject(error)
    for (const waiting of pending.values()) waiting.reject(error)
    pending.clear()
  }
  worker.on('error', (error) => failAll(error))
  worker.on('exit', (code) => {
    if (isClosed) return
    isClosed = true
    failAll(new Error(`the database thread stopped (exit code ${code})`))
  })

  function send<T>(request: Unsent): Promise<T> {
    if (isClosed) return Promise.reject(new Error('the database is closed'))
    if (failure) return Promise.reject(failure)
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      worker.postMessage({ ...request, id } as ThreadRequest)
    })
  }

  const statements = (txId: number | undefined): PgliteTransactionClient => ({
    query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
      send<Results<T>>({
        op: 'query',
        sql,
        params,
        rowMode: options?.rowMode,
        rawTypes: rawTypesOf(options),
        txId,
      } satisfies Statement),
    exec: (sql: string) => send<Results[]>({ op: 'exec', sql, txId } satisfies Statement),
  })
  const outside = statements(undefined)

  return {
    waitReady,
    get closed() {
      return isClosed
    },
    query: outside.query,
    exec: outside.exec,
    async transaction(run) {
      const txId = nextTxId++
      await send({ op: 'begin', txId })
      let result: Awaited<ReturnType<typeof run>>
      try {
        result = await run(statements(txId))
      } catch (error) {
        await send({ op: 'rollback', txId }).catch(() => undefined)
        throw error
      }
      await send({ op: 'commit', txId })
      return result
    },
    async close() {
      if (isClosed) return
      // PGlite closes its files cleanly first; then the thread ends.
      await send({ op: 'close' }).catch(() => undefined)
      isClosed = true
      for (const waiting of pending.values()) waiting.reject(new Error('the database is closed'))
      pending.clear()
      await worker.terminate()
    },
  }
}

/**
 * The query layer passes parsers that keep dates and intervals as text. Functions cannot cross
 * to another thread, so the types travel instead, and the database thread applies the same
 * identity parsers there.
 */
function rawTypesOf(options: QueryOptions | undefined): number[] | undefined {
  if (!options?.parsers) return undefined
  const types = Object.keys(options.parsers).map(Number)
  for (const type of types) {
    const parser = options.parsers[type]
    if (parser && parser('x') !== 'x') {
      throw new Error(`only text-keeping parsers can cross to the database thread (type ${type})`)
    }
  }
  return types.sort((a, b) => a - b)
}

/**
 * The embedded database of a data folder (`<dataDir>/pglite`) on its thread. PGlite creates only
 * the last folder level itself; the data folder is owner-only, so the database files (and their
 * WAL: emails, reset tokens) are out of other users' reach whatever modes PGlite gives them.
 */
export function openPgliteFolder(dataDir: string): PgliteClient {
  const dir = resolve(dataDir, 'pglite')
  ensurePrivateDir(dirname(dir))
  return openPgliteThread({ kind: 'dir', dataDir: dir })
}
