// The embedded database's own thread (see pglite-thread.ts): runs PGlite and answers the main
// thread's statements in the order they arrive. Plain TypeScript (types only), so Node runs it
// as it is in a worker thread.

import { parentPort, workerData } from 'node:worker_threads'
import { type ParserOptions, PGlite, type Transaction } from '@electric-sql/pglite'
import type { ThreadReply, ThreadRequest, ThreadStart } from './pglite-thread-protocol.ts'

const port = parentPort
if (!port) throw new Error('pglite-thread-worker.ts runs only as a worker thread')

const start = workerData as ThreadStart
/**
 * PostgreSQL's own page cache lives inside the WebAssembly memory, and all of it is resident
 * from the start (Emscripten's anonymous mmap writes zeros over what it hands out). At its
 * default, 128 MB, it was most of an idle server's memory (PGlite on a seller's data folder:
 * 216 MB resident; at 32 MB: 114 MB); from 32 MB to 8 MB the whole server's idle RSS falls by
 * ≈ 26 MB. A shop's tables are a few megabytes, and a page that is not in this cache is read
 * from the operating system's cache (docs/decisions/0050-idle-memory.md).
 */
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB']
const pglite =
  start.kind === 'dump'
    ? new PGlite('memory://', { loadDataDir: new Blob([start.dump]), startParams })
    : new PGlite(start.dataDir, { startParams })

type OpenTransaction = { tx: Transaction; end: (commit: boolean) => void; endId: number }
const transactions = new Map<number, OpenTransaction>()

/** Parsers that keep these types' text as it is (what the query layer asks for dates). */
const rawParsers = new Map<string, ParserOptions>()
function parsersFor(rawTypes: number[] | undefined): ParserOptions | undefined {
  if (!rawTypes) return undefined
  const key = rawTypes.join(',')
  let parsers = rawParsers.get(key)
  if (!parsers) {
    parsers = Object.fromEntries(rawTypes.map((type) => [type, (value: string) => value]))
    rawParsers.set(key, parsers)
  }
  return parsers
}

/** An error as plain data: its message and every cloneable field (code, detail, constraint…). */
function serializeError(error: unknown): ThreadReply & { ok: false } {
  if (!(error instanceof Error)) return { id: 0, ok: false, message: String(error), fields: {} }
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(error)) {
    if (key === 'queryOptions' || typeof value === 'function') continue
    try {
      structuredClone(value)
      fields[key] = value
    } catch {
      // Not cloneable: left out.
    }
  }
  return { id: 0, ok: false, message: error.message, fields }
}

function reply(id: number, outcome: Promise<unknown>) {
  outcome.then(
    (result) => port?.postMessage({ id, ok: true, result } satisfies ThreadReply),
    (error: unknown) => port?.postMessage({ ...serializeError(error), id } satisfies ThreadReply),
  )
}

function target(txId: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (txId === undefined) return pglite
  const open = transactions.get(txId)
  if (!open) throw new Error(`no open transaction ${txId}`)
  return open.tx
}

port.on('message', (request: ThreadRequest) => {
  switch (request.op) {
    case 'query': {
      const options = { rowMode: request.rowMode, parsers: parsersFor(request.rawTypes) }
      reply(
        request.id,
        Promise.resolve().then(() => target(request.txId).query(request.sql, request.params, options)),
      )
      return
    }
    case 'exec':
      reply(
        request.id,
        Promise.resolve().then(() => target(request.txId).exec(request.sql)),
      )
      return
    case 'begin': {
      const { txId } = request
      let opened: () => void = () => {}
      const isOpen = new Promise<void>((resolve) => (opened = resolve))
      // PGlite holds its transaction lock until this callback settles: statements from outside
      // the transaction wait, exactly as they would in one thread.
      const done = pglite.transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            transactions.set(txId, {
              tx,
              endId: 0,
              end: (commit) => (commit ? resolve() : reject(new RolledBack())),
            })
            opened()
          }),
      )
      reply(request.id, Promise.race([isOpen, done]))
      done.then(
        () => finishTransaction(txId, null),
        (error: unknown) => finishTransaction(txId, error instanceof RolledBack ? null : error),
      )
      return
    }
    case 'commit':
    case 'rollback': {
      const open = transactions.get(request.txId)
      if (!open) {
        port?.postMessage({ id: request.id, ok: true, result: null } satisfies ThreadReply)
        return
      }
      open.endId = request.id
      open.end(request.op === 'commit')
      return
    }
    case 'close':
      reply(
        request.id,
        pglite.close().then(() => null),
      )
      return
  }
})

class RolledBack extends Error {}

function finishTransaction(txId: number, error: unknown) {
  const open = transactions.get(txId)
  transactions.delete(txId)
  if (!open?.endId) return
  if (error) port?.postMessage({ ...serializeError(error), id: open.endId } satisfies ThreadReply)
  else port?.postMessage({ id: open.endId, ok: true, result: null } satisfies ThreadReply)
}

pglite.waitReady.then(
  () => port.postMessage({ id: 0, ok: true, result: 'ready' } satisfies ThreadReply),
  (error: unknown) => port.postMessage({ ...serializeError(error), id: 0 } satisfies ThreadReply),
)
