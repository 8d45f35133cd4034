import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { AppError } from '#shared/errors.ts'

export type ReceivedFile = { fieldName: string; name: string; bytes: Buffer }

/**
 * Reads exactly one file from a multipart body, streaming, and stops reading the moment it
 * passes `maxBytes` (FILE_TOO_LARGE) instead of taking in the rest.
 */
export async function receiveSingleFile(request: Request, maxBytes: number): Promise<ReceivedFile> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!contentType.toLowerCase().startsWith('multipart/form-data') || !request.body) {
    throw new AppError('FILE_MISSING', 'Expected a multipart/form-data body with a file')
  }
  // A declared length far past the limit is refused before reading a byte.
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > maxBytes + 64 * 1024) throw new AppError('FILE_TOO_LARGE', 'Upload too large')

  const source = Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>)
  return new Promise<ReceivedFile>((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Browsers send non-ASCII file names as raw UTF-8.
        defParamCharset: 'utf8',
        limits: { files: 1, fileSize: maxBytes, fields: 10 },
      })
    } catch (error) {
      reject(new AppError('FILE_MISSING', 'Malformed multipart body', undefined, { cause: error }))
      return
    }
    let received: ReceivedFile | null = null
    let isSettled = false
    const fail = (error: AppError) => {
      if (isSettled) return
      isSettled = true
      source.unpipe(parser)
      source.destroy()
      reject(error)
    }
    parser.on('file', (fieldName, stream, info) => {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('limit', () => fail(new AppError('FILE_TOO_LARGE', 'Upload too large')))
      stream.on('end', () => {
        if (!isSettled)
          received = { fieldName, name: info.filename || 'upload', bytes: Buffer.concat(chunks) }
      })
    })
    parser.on('error', (error) =>
      fail(new AppError('FILE_MISSING', 'Malformed multipart body', undefined, { cause: error })),
    )
    parser.on('close', () => {
      if (isSettled) return
      isSettled = true
      if (received) resolve(received)
      else reject(new AppError('FILE_MISSING', 'No file in the upload'))
    })
    source.on('error', (error) =>
      fail(new AppError('FILE_MISSING', 'Upload interrupted', undefined, { cause: error })),
    )
    source.pipe(parser)
  })
}
