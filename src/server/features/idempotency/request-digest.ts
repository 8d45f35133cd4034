import { createHash } from 'node:crypto'

/**
 * The SHA-256 of a request body, taken while the body streams past: the route reads the body
 * through `stream()` as it would the original (nothing more is held in memory than the route
 * holds), and what the route leaves unread can be read on with `readOn`.
 *
 * A multipart body is hashed with its boundary replaced by a fixed mark: clients choose a new
 * random boundary for every request (curl does), so the same upload sent again would otherwise
 * never count as the same request.
 */
export class RequestDigest {
  /** Bytes hashed so far (after the boundary is replaced). */
  bytes = 0
  /** The whole body went through the hash. */
  isEnded = false
  private isCanceled = false
  private readonly hash = createHash('sha256')
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | null
  private readonly boundary: Buffer | null
  /** The last bytes of a multipart body, kept back until we know no boundary starts in them. */
  private tail: Buffer = Buffer.alloc(0)

  constructor(body: ReadableStream<Uint8Array> | null, contentType: string | undefined) {
    this.reader = body?.getReader() ?? null
    const boundary = multipartBoundary(contentType)
    this.boundary = boundary ? Buffer.from(boundary, 'latin1') : null
    if (!this.reader) this.end()
  }

  /** The body, as the route should read it: every chunk is hashed on its way. */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const chunk = await this.read()
        if (chunk) controller.enqueue(chunk)
        else controller.close()
      },
      cancel: async (reason) => {
        this.isCanceled = true
        await this.reader?.cancel(reason)
      },
    })
  }

  /**
   * Reads the rest of the body into the hash, throwing the bytes away, until it ends (true) or
   * more than `maxBytes` were hashed in all, or the body was cut off (false; reading stops).
   */
  async readOn(maxBytes: number): Promise<boolean> {
    while (!this.isEnded) {
      if (this.isCanceled) return false
      if (this.bytes > maxBytes) {
        this.isCanceled = true
        await this.reader?.cancel().catch(() => undefined)
        return false
      }
      try {
        await this.read()
      } catch {
        return false
      }
    }
    return this.bytes <= maxBytes
  }

  /** Bytes hashed and the hash, hex; only once the body has ended. */
  result(): { bytes: number; sha256: string } {
    if (!this.isEnded) throw new Error('the body has not been read to its end')
    return { bytes: this.bytes, sha256: this.hash.copy().digest('hex') }
  }

  private async read(): Promise<Uint8Array | null> {
    if (!this.reader || this.isEnded) return null
    const { done, value } = await this.reader.read()
    if (done) {
      this.end()
      return null
    }
    this.feed(value)
    return value
  }

  private feed(chunk: Uint8Array) {
    if (!this.boundary) {
      this.update(chunk)
      return
    }
    let data = Buffer.concat([this.tail, chunk])
    for (let at = data.indexOf(this.boundary); at !== -1; at = data.indexOf(this.boundary)) {
      this.update(data.subarray(0, at))
      this.update(boundaryMark)
      data = data.subarray(at + this.boundary.length)
    }
    // A boundary may begin in the last bytes and end in the next chunk: keep those back.
    const keep = Math.min(data.length, this.boundary.length - 1)
    this.update(data.subarray(0, data.length - keep))
    this.tail = Buffer.from(data.subarray(data.length - keep))
  }

  private end() {
    this.update(this.tail)
    this.tail = Buffer.alloc(0)
    this.isEnded = true
  }

  private update(bytes: Uint8Array) {
    this.bytes += bytes.length
    this.hash.update(bytes)
  }
}

const boundaryMark = Buffer.from('<boundary>')

/** The boundary of a multipart Content-Type, or null for any other body. */
function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return null
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  const boundary = match?.[1] ?? match?.[2]
  return boundary && boundary.length > 0 ? boundary : null
}
