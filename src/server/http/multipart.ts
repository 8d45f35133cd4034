import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable, Writable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { AppError } from '#shared/errors.ts'

export type ReceivedFile = { fieldName: string; name: string; bytes: Buffer }
export type ReceivedFileOnDisk = { fieldName: string; name: string; path: string; bytes: number }

/** Where a received file's bytes go: collected in memory, or written to a file. */
type Sink<T> = {
  open(): Writable
  done(fieldName: string, name: string, bytes: number): Promise<T>
}

export type ReceiveOptions = {
  /** A body without a file answers null instead of FILE_MISSING. */
  optional?: boolean
  /**
   * The one part the body may have (the file's field name): any other part, a file or a plain
   * field, is refused with 400 VALIDATION_FAILED naming it, as unknown JSON fields are.
   */
  onlyField?: string
}

/**
 * Reads exactly one file from a multipart body into `sink`, streaming, and stops reading the
 * moment it passes `maxBytes` (FILE_TOO_LARGE) instead of taking in the rest.
 */
async function receiveOneFile<T>(
  request: Request,
  maxBytes: number,
  sink: Sink<T>,
  options: ReceiveOptions = {},
): Promise<T | null> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!contentType.toLowerCase().startsWith('multipart/form-data') || !request.body) {
    if (options.optional && !request.body) return null
    throw new AppError('FILE_MISSING', 'Expected a multipart/form-data body with a file')
  }
  // A declared length far past the limit is refused before reading a byte.
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > maxBytes + 64 * 1024) throw new AppError('FILE_TOO_LARGE', 'Upload too large')

  const source = Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>)
  return new Promise<T | null>((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Browsers send non-ASCII file names as raw UTF-8.
        defParamCharset: 'utf8',
        // With one allowed part, further files are let through to be refused by name below.
        limits: { files: options.onlyField === undefined ? 1 : 10, fileSize: maxBytes, fields: 10 },
      })
    } catch (error) {
      reject(new AppError('FILE_MISSING', 'Malformed multipart body', undefined, { cause: error }))
      return
    }
    let received: Promise<T> | null = null
    let isSettled = false
    let out: Writable | null = null
    const handleAbort = () => fail(new AppError('FILE_MISSING', 'Upload interrupted'))
    // Each way out: the request's listener goes, and so does a half-written file's stream (its
    // descriptor closed before the failure is told, so a caller can remove the file for good).
    const fail = (error: AppError) => {
      if (isSettled) return
      isSettled = true
      request.signal.removeEventListener('abort', handleAbort)
      source.unpipe(parser)
      source.destroy()
      if (!out || out.closed) {
        reject(error)
        return
      }
      out.once('close', () => reject(error))
      out.destroy()
    }
    // The client went away mid-body: stop at once rather than wait for a body that never ends.
    if (request.signal.aborted) {
      handleAbort()
      return
    }
    request.signal.addEventListener('abort', handleAbort, { once: true })
    const unknownPart = (name: string, problem: 'unknown' | 'invalid' = 'unknown') =>
      new AppError('VALIDATION_FAILED', `Invalid field(s): ${name}`, { fields: { [name]: problem } })
    parser.on('field', (name) => {
      if (options.onlyField !== undefined) fail(unknownPart(name))
    })
    parser.on('file', (fieldName, stream, info) => {
      if (options.onlyField !== undefined && (fieldName !== options.onlyField || out !== null)) {
        stream.resume()
        // Another part is unknown; a second file under the right name is one too many.
        fail(unknownPart(fieldName, fieldName === options.onlyField ? 'invalid' : 'unknown'))
        return
      }
      out = sink.open()
      let bytes = 0
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length
      })
      stream.on('limit', () => fail(new AppError('FILE_TOO_LARGE', 'Upload too large')))
      const written = new Promise<void>((done, failed) => {
        out?.on('finish', done)
        out?.on('error', failed)
      })
      stream.pipe(out)
      received = written.then(() => sink.done(fieldName, info.filename || 'upload', bytes))
      received.catch(() => undefined)
    })
    parser.on('error', (error) =>
      fail(new AppError('FILE_MISSING', 'Malformed multipart body', undefined, { cause: error })),
    )
    parser.on('close', () => {
      if (isSettled) return
      isSettled = true
      request.signal.removeEventListener('abort', handleAbort)
      if (received) received.then(resolve, reject)
      else if (options.optional) resolve(null)
      else reject(new AppError('FILE_MISSING', 'No file in the upload'))
    })
    source.on('error', (error) =>
      fail(new AppError('FILE_MISSING', 'Upload interrupted', undefined, { cause: error })),
    )
    source.pipe(parser)
  })
}

function memorySink(): Sink<ReceivedFile> {
  const chunks: Buffer[] = []
  return {
    open: () =>
      new Writable({
        write(chunk: Buffer, _encoding: string, next: () => void) {
          chunks.push(chunk)
          next()
        },
      }),
    done: async (fieldName, name) => ({ fieldName, name, bytes: Buffer.concat(chunks) }),
  }
}

/** Reads exactly one file from a multipart body into memory (see receiveOneFile). */
export async function receiveSingleFile(
  request: Request,
  maxBytes: number,
  options: Pick<ReceiveOptions, 'onlyField'> = {},
): Promise<ReceivedFile> {
  const file = await receiveOneFile(request, maxBytes, memorySink(), options)
  if (!file) throw new AppError('FILE_MISSING', 'No file in the upload')
  return file
}

/**
 * Reads one file from a multipart body into the file at `path` (a large upload, e.g. a ZIP of
 * photos, never held in memory). Null when the body has no file. Once it is received the caller
 * removes the file; when receiving fails (the client went away mid-body, the file is too large,
 * the body is malformed) the partial file is removed here, at once.
 */
export async function receiveFileToDisk(
  request: Request,
  maxBytes: number,
  path: string,
): Promise<ReceivedFileOnDisk | null> {
  try {
    return await receiveOneFile(
      request,
      maxBytes,
      {
        open: () => createWriteStream(path, { mode: 0o600 }),
        done: async (fieldName, name, bytes) => ({ fieldName, name, path, bytes }),
      },
      { optional: true },
    )
  } catch (error) {
    await rm(path, { force: true })
    throw error
  }
}
