import type { Context, MiddlewareHandler } from 'hono'
import { COMPRESSIBLE_CONTENT_TYPE_REGEX, compress } from 'hono/compress'

const thresholdBytes = 1024
const noTransform = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i
const variesOnAcceptEncoding = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i

/**
 * Whether hono's compress (defaults: 1 KB threshold, its text types) would vary `c.res` on
 * Accept-Encoding: the same tests, in its order (hono/dist/middleware/compress).
 */
function isCompressible(c: Context): boolean {
  const { headers, status } = c.res
  if (status === 206 || c.req.method === 'HEAD') return false
  if (headers.has('Content-Encoding') || headers.has('Transfer-Encoding')) return false
  const length = headers.get('Content-Length')
  if (length && Number(length) < thresholdBytes) return false
  const type = headers.get('Content-Type')
  if (!type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) return false
  const cacheControl = headers.get('Cache-Control')
  return !cacheControl || !noTransform.test(cacheControl)
}

/**
 * hono's compress (gzip or deflate by Accept-Encoding), without its cost on the answers it does
 * not compress. It adds `Vary: Accept-Encoding` with `c.header`, which on a finished answer
 * rebuilds the Response around its body as a stream, so @hono/node-server then writes even a
 * small JSON answer chunked instead of in one piece. Here that Vary goes straight onto the
 * answer's own headers first, for exactly the answers compress would vary; compress finds it
 * there and leaves the answer as it is unless it compresses it.
 */
export function compression(): MiddlewareHandler {
  const compressing = compress({ threshold: thresholdBytes })
  return (c, next) =>
    compressing(c, async () => {
      await next()
      if (!isCompressible(c)) return
      const current = c.res.headers.get('Vary')
      if (current === '*' || (current && variesOnAcceptEncoding.test(current))) return
      c.res.headers.set('Vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding')
    })
}
