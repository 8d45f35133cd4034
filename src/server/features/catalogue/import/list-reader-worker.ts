import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parentPort } from 'node:worker_threads'
import { AppError } from '#shared/errors.ts'
import { indexPhotoZip, type PhotoZipIndex } from './photo-zip.ts'
import { type ProductList, readProductList } from './read-product-list.ts'

// A thread of the list reader's pool (list-reader.ts): reads one product list, or indexes one
// photo ZIP, at a time, so the parsing of a hostile file (10 MB of empty lines, a 90 MB sheet,
// ten thousand ZIP entries) never runs on the thread that answers requests. Plain TypeScript
// (types only), so Node runs it as it is in a worker thread.

export type ReadRequest =
  | {
      id: number
      kind: 'list'
      /** The list's bytes, or the file they were received into (read here, off the event loop). */
      bytes: Uint8Array | { path: string }
      fileName: string
      options: Parameters<typeof readProductList>[2]
    }
  | { id: number; kind: 'photoZip'; path: string }
export type ReadReply =
  | { id: 0; ready: true }
  | { id: number; ok: true; list: ProductList }
  | { id: number; ok: true; photoZip: PhotoZipIndex }
  | {
      id: number
      ok: false
      error: { code: AppError['code']; message: string; details: AppError['details'] }
    }
  | { id: number; ok: false; error: { code: null; message: string } }

const port = parentPort
if (!port) throw new Error('list-reader-worker.ts runs only as a worker thread (see list-reader.ts)')
const baseTmp = tmpdir()

port.on('message', async (request: ReadRequest) => {
  // exceljs copies a sheet stored before its shared strings to a temporary file; each read gets a
  // folder of its own, removed afterwards, so a read stopped at the row cap leaves nothing behind.
  const folder = await mkdtemp(join(baseTmp, 'vitrin-list-'))
  // biome-ignore lint/style/noProcessEnv: the temporary folder exceljs (through tmp) reads, this thread's own copy
  process.env.TMPDIR = folder
  let reply: ReadReply
  try {
    if (request.kind === 'photoZip') {
      reply = { id: request.id, ok: true, photoZip: await indexPhotoZip(request.path) }
    } else {
      const source = request.bytes
      const bytes =
        'path' in source
          ? await readFile(source.path)
          : Buffer.from(source.buffer, source.byteOffset, source.byteLength)
      const list = await readProductList(bytes, request.fileName, request.options)
      reply = { id: request.id, ok: true, list }
    }
  } catch (error) {
    reply =
      error instanceof AppError
        ? {
            id: request.id,
            ok: false,
            error: { code: error.code, message: error.message, details: error.details },
          }
        : {
            id: request.id,
            ok: false,
            error: { code: null, message: error instanceof Error ? error.message : String(error) },
          }
  } finally {
    // biome-ignore lint/style/noProcessEnv: restores the folder set above
    process.env.TMPDIR = baseTmp
    await rm(folder, { recursive: true, force: true })
  }
  port.postMessage(reply)
})
// Loading this thread's modules is not part of any read's time budget.
port.postMessage({ id: 0, ready: true } satisfies ReadReply)
