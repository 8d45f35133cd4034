import { type Context, Hono } from 'hono'
import type { Db } from '#server/db/client.ts'
import type { AppEnv } from '#server/http/context.ts'
import { type ObjectStorage, StorageNotFoundError } from '#server/storage/types.ts'
import { AppError } from '#shared/errors.ts'
import { findServedMedia, mediaExtension, publishedCacheControl } from './published-media.service.ts'

/** Whether an If-None-Match header names `etag` (weak or strong) or is `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`
  })
}

function cachedHeaders(c: Context<AppEnv>, etag: string) {
  c.header('Cache-Control', publishedCacheControl)
  c.header('ETag', etag)
  // Not the app's same-origin default: a marketplace's panel, or a seller's browser looking at a
  // listing, shows the image from its own origin.
  c.header('Cross-Origin-Resource-Policy', 'cross-origin')
}

/** One answer for an unknown, malformed and revoked token alike, so none can be told apart. */
function notFound(): never {
  throw new AppError('NOT_FOUND', 'Not found')
}

/**
 * Mounted at /media, outside /api: a marketplace's image and video downloader has no session, no cookie
 * and no key, and the token in the path is the whole authorisation. GET and HEAD (Hono answers
 * HEAD from the GET route, without the body).
 */
export function publishedMediaRoutes(deps: { db: Db; storage: ObjectStorage }) {
  return new Hono<AppEnv>().get('/:file', async (c) => {
    const match = /^([A-Za-z0-9_-]+)\.(jpg|mp4)$/.exec(c.req.param('file'))
    if (!match?.[1]) notFound()
    const media = await findServedMedia(deps.db, match[1])
    // An image's token under .mp4 (or a video's under .jpg) is not an address that was given out.
    if (!media || mediaExtension(media.mime) !== match[2]) notFound()
    const etag = `"${media.checksum}"`
    if (matchesEtag(c.req.header('if-none-match'), etag)) {
      cachedHeaders(c, etag)
      return c.body(null, 304)
    }
    let bytes: Buffer
    try {
      bytes = await deps.storage.get(media.storageKey)
    } catch (error) {
      // Revoked between the read of its row and of its file.
      if (error instanceof StorageNotFoundError) notFound()
      throw error
    }
    cachedHeaders(c, etag)
    c.header('Content-Type', media.mime)
    c.header('Content-Length', String(bytes.length))
    return c.body(new Uint8Array(bytes))
  })
}
