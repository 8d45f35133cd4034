import { Hono } from 'hono'
import { attachmentHeader } from '#server/http/attachment.ts'
import type { AppEnv } from '#server/http/context.ts'
import { receiveSingleFile } from '#server/http/multipart.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import type { AssetResponse } from '#shared/contracts/assets.ts'
import {
  type AssetDeps,
  admitUpload,
  deleteUpload,
  getOwnedAsset,
  presentAsset,
  storeUpload,
} from './assets.service.ts'
import { maxUploadBytes } from './image-intake.ts'

/** Whether an If-None-Match header names `etag` (weak or strong) or is `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`
  })
}

export function assetsRoutes(deps: AssetDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .post('/', async (c) => {
      const userId = currentUser(c).id
      // Limits and the plan are checked before the body is read.
      const subscription = await admitUpload(deps, userId, c.get('clientIp'))
      const file = await receiveSingleFile(c.req.raw, maxUploadBytes)
      const asset = await storeUpload(deps, userId, { bytes: file.bytes, name: file.name }, subscription)
      deps.photoArrived?.(asset)
      return c.json<AssetResponse>({ asset: presentAsset(asset) }, 201)
    })
    .delete('/:id', async (c) => {
      await deleteUpload(deps, currentUser(c).id, c.req.param('id'), c.get('log'))
      return c.body(null, 204)
    })
    .get('/:id', async (c) =>
      c.json<AssetResponse>({
        asset: presentAsset(await getOwnedAsset(deps.db, currentUser(c).id, c.req.param('id'))),
      }),
    )
    .get('/:id/file', async (c) => {
      const asset = await getOwnedAsset(deps.db, currentUser(c).id, c.req.param('id'))
      // Only its owner may see it, and only while signed in and while it exists: the browser
      // keeps a private copy but asks each time; an unchanged file costs a 304 and no read.
      const etag = `"${asset.checksum}"`
      c.header('Cache-Control', 'private, no-cache')
      c.header('ETag', etag)
      if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304)
      const bytes = await deps.storage.get(asset.storageKey)
      c.header('Content-Type', asset.mime)
      c.header('Content-Length', String(bytes.length))
      if (c.req.query('download') === '1') c.header('Content-Disposition', attachmentHeader(asset.fileName))
      return c.body(new Uint8Array(bytes))
    })
}
