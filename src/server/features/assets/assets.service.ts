import { createHash, randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { AppError } from '../../../shared/errors.ts'
import type { Db } from '../../db/client.ts'
import { assets } from '../../db/schema/index.ts'
import type { ObjectStorage } from '../../storage/types.ts'
import { normalizeUploadedImage } from './image-intake.ts'

export type AssetRow = typeof assets.$inferSelect
export type AssetDeps = { db: Db; storage: ObjectStorage }

const extensionOf: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
}

/** A file name safe for a Content-Disposition header and any file system. */
export function safeFileName(name: string, mime: string): string {
  const extension = extensionOf[mime] ?? 'bin'
  const stem = name
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return `${stem || 'vitrin'}.${extension}`
}

/**
 * Stores bytes and records them as the user's asset. The bytes go first; if the row cannot be
 * written they are removed again, so nothing is left half-stored.
 */
export async function storeAsset(
  deps: AssetDeps,
  input: {
    userId: string
    kind: AssetRow['kind']
    bytes: Buffer
    mime: string
    fileName: string
    width?: number
    height?: number
  },
): Promise<AssetRow> {
  const id = randomUUID()
  const storageKey = `${input.userId}/${id}.${extensionOf[input.mime] ?? 'bin'}`
  await deps.storage.put(storageKey, input.bytes, input.mime)
  try {
    const [row] = await deps.db
      .insert(assets)
      .values({
        id,
        userId: input.userId,
        kind: input.kind,
        mime: input.mime,
        bytes: input.bytes.length,
        width: input.width ?? null,
        height: input.height ?? null,
        storageKey,
        checksum: createHash('sha256').update(input.bytes).digest('hex'),
        fileName: safeFileName(input.fileName, input.mime),
      })
      .returning()
    if (!row) throw new Error('asset insert returned no row')
    return row
  } catch (error) {
    await deps.storage.delete(storageKey).catch(() => undefined)
    throw error
  }
}

/** Checks, cleans and stores an uploaded photo. */
export async function storeUpload(
  deps: AssetDeps,
  userId: string,
  file: { bytes: Buffer; name: string },
): Promise<AssetRow> {
  const image = await normalizeUploadedImage(file.bytes)
  return storeAsset(deps, {
    userId,
    kind: 'upload',
    bytes: image.bytes,
    mime: image.mime,
    fileName: file.name,
    width: image.width,
    height: image.height,
  })
}

/** The user's own asset, or NOT_FOUND (also for someone else's: existence is not revealed). */
export async function getOwnedAsset(db: Db, userId: string, id: string): Promise<AssetRow> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
  if (!isUuid) throw new AppError('NOT_FOUND', 'No such asset')
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), eq(assets.userId, userId)))
  if (!row) throw new AppError('NOT_FOUND', 'No such asset')
  return row
}

export function presentAsset(row: AssetRow) {
  return {
    id: row.id,
    kind: row.kind,
    mime: row.mime,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    fileName: row.fileName,
    url: `/api/assets/${row.id}/file`,
    createdAt: row.createdAt.toISOString(),
  }
}
