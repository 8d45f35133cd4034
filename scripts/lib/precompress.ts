import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** Text files worth compressing; source maps are for developers and left as they are. */
const compressible = /\.(js|mjs|css|svg|json|txt|xml|webmanifest)$/
/** Below this a compressed copy saves less than its headers cost (the server's own threshold). */
const minBytes = 1024

/**
 * Writes a `.br` and a `.gz` copy beside every compressible file of the build's hashed assets,
 * each at the highest level: done once here, it spares the server compressing the same bytes on
 * every request (the server serves a copy when the browser accepts its encoding). Returns how
 * many files got copies.
 */
export function precompressAssets(webDist: string): number {
  const dir = join(webDist, 'assets')
  let count = 0
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (!compressible.test(name) || !statSync(path).isFile()) continue
    const bytes = readFileSync(path)
    if (bytes.length < minBytes) continue
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    )
    writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }))
    count++
  }
  return count
}
