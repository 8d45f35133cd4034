import { Hono } from 'hono'
import type { AppEnv } from '../../http/context.ts'
import { currentUser, requireUser } from '../../http/session.ts'
import { type AssetDeps, getOwnedAsset, presentAsset, storeUpload } from './assets.service.ts'
import { maxUploadBytes } from './image-intake.ts'
import { receiveSingleFile } from './multipart.ts'

/** RFC 6266 attachment header with an ASCII fallback name and the UTF-8 one. */
function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

export function assetsRoutes(deps: AssetDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .post('/', async (c) => {
      const file = await receiveSingleFile(c.req.raw, maxUploadBytes)
      const asset = await storeUpload(deps, currentUser(c).id, { bytes: file.bytes, name: file.name })
      return c.json({ asset: presentAsset(asset) }, 201)
    })
    .get('/:id', async (c) =>
      c.json({ asset: presentAsset(await getOwnedAsset(deps.db, currentUser(c).id, c.req.param('id'))) }),
    )
    .get('/:id/file', async (c) => {
      const asset = await getOwnedAsset(deps.db, currentUser(c).id, c.req.param('id'))
      const bytes = await deps.storage.get(asset.storageKey)
      c.header('Content-Type', asset.mime)
      c.header('Content-Length', String(bytes.length))
      // An asset id never changes content; only its owner may see it.
      c.header('Cache-Control', 'private, max-age=31536000, immutable')
      c.header('ETag', `"${asset.checksum}"`)
      if (c.req.query('download') === '1') c.header('Content-Disposition', attachmentHeader(asset.fileName))
      return c.body(new Uint8Array(bytes))
    })
}
