import { createHash, randomBytes } from 'node:crypto'
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import sharp from 'sharp'
import type { Db } from '#server/db/client.ts'
import { type PublishedMediaRow, publishedMedia } from '#server/db/schema/index.ts'
import { getOwnedAsset } from '#server/features/assets/assets.service.ts'
import { fileForMarketplace } from '#server/features/marketplaces/marketplace-export.service.ts'
import {
  type MarketplaceDeps,
  measureVideoBytes,
  VideoToolError,
} from '#server/features/marketplaces/marketplaces.service.ts'
import type { Logger } from '#server/logger.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import { AppError } from '#shared/errors.ts'
import { isMarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import { mediaOrigin, type OriginConfig, publicOriginError } from './public-origin.ts'

// Images and videos a marketplace downloads for a listing (issue 30, point 6). Each is the
// seller's result made once for the marketplace (the panel's export: marketplaces.service.ts
// fileForMarketplace; an image in its size, a video framed and lengthened to its rules) and
// stored under its own key, so the marketplace fetches exactly the bytes that were checked. Its address holds a random token and nothing else: unguessable, stable
// (publishing the same image for the same marketplace again gives the same address) and
// revocable (the row stays, marked, so a token is never reused; the file goes).

export type PublishedMediaDeps = {
  db: Db
  storage: ObjectStorage
  /** Renders in a marketplace's size; the app's one set, shared with the panel and the catalogue. */
  marketplaces: MarketplaceDeps
  config: OriginConfig
  log?: Logger
}

/** The answer's caching: a token's bytes never change, and a revoked token is gone, never changed. */
export const publishedCacheControl = 'public, max-age=31536000, immutable'

/** Random bytes in a token: 192 bits (the brief asks for at least 128), 32 base64url characters. */
const tokenBytes = 24
/** A token as it appears in a URL: exactly what tokenBytes encode to. */
export const tokenPattern = /^[A-Za-z0-9_-]{32}$/

/** The two kinds of file published: an image as JPEG, a video as MP4 (what the exports make). */
export type PublishedMime = 'image/jpeg' | 'video/mp4'

/** A published file's extension, in its address and its stored key. */
export function mediaExtension(mime: string): 'jpg' | 'mp4' {
  return mime === 'video/mp4' ? 'mp4' : 'jpg'
}

/** The stored key of a published file: outside every user's folder, named by its token alone. */
export function publishedStorageKey(token: string, mime: PublishedMime = 'image/jpeg'): string {
  return `published/${token}.${mediaExtension(mime)}`
}

export function newMediaToken(): string {
  return randomBytes(tokenBytes).toString('base64url')
}

/**
 * The public https URL of a published file: PUBLIC_URL/media/<token>.jpg (.mp4 for a video), or
 * with S3_PUBLIC_URL the bucket's own address of its key (under S3_PREFIX, as s3.ts stores it).
 */
export function publicMediaUrl(
  config: Pick<OriginConfig, 'publicUrl' | 'storage'>,
  row: Pick<PublishedMediaRow, 'token' | 'storageKey'> & { mime?: string },
): string {
  const { setting, origin } = mediaOrigin(config)
  if (setting === 'PUBLIC_URL') return `${origin}/media/${row.token}.${mediaExtension(row.mime ?? '')}`
  const prefix = config.storage.s3?.prefix
  return `${origin}/${prefix ? `${prefix}/` : ''}${row.storageKey}`
}

export type PublishedMedia = {
  url: string
  token: string
  /** Null once the image it was rendered from is deleted (it is then no longer served). */
  assetId: string | null
  profile: string
  mime: string
  bytes: number
  width: number
  height: number
}

function present(config: OriginConfig, row: PublishedMediaRow): PublishedMedia {
  return {
    url: publicMediaUrl(config, row),
    token: row.token,
    assetId: row.assetId,
    profile: row.profile,
    mime: row.mime,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
  }
}

async function liveRow(db: Db, userId: string, assetId: string, profile: string) {
  const [row] = await db
    .select()
    .from(publishedMedia)
    .where(
      and(
        eq(publishedMedia.userId, userId),
        eq(publishedMedia.assetId, assetId),
        eq(publishedMedia.profile, profile),
        isNull(publishedMedia.revokedAt),
      ),
    )
  return row
}

/**
 * The public address of the user's image or video `assetId` made for `profile` (a marketplace
 * id): made and stored on the first call, the same address on every later one while not revoked.
 * Refuses (PUBLIC_URL_*) before any work when marketplaces could not fetch from this server's
 * public origin; NOT_FOUND for another user's or an unknown asset or profile; VALIDATION_FAILED
 * for a file that is neither an image nor a readable video.
 */
export async function publishMedia(
  deps: PublishedMediaDeps,
  userId: string,
  assetId: string,
  profile: string,
): Promise<PublishedMedia> {
  const refused = publicOriginError(deps.config)
  if (refused) throw refused
  if (!isMarketplaceId(profile)) throw new AppError('NOT_FOUND', 'No such marketplace profile')
  const existing = await liveRow(deps.db, userId, assetId, profile)
  if (existing) return present(deps.config, existing)

  const asset = await getOwnedAsset(deps.db, userId, assetId)
  const kind = asset.mime.startsWith('image/') ? 'image' : asset.mime.startsWith('video/') ? 'video' : null
  const notMedia = () =>
    new AppError('VALIDATION_FAILED', 'Only images and videos are published by address', {
      fields: { assetId: 'invalid' },
    })
  if (!kind) throw notMedia()
  const original = await deps.storage.get(asset.storageKey)
  let made: { bytes: Buffer; mime: PublishedMime; width: number; height: number }
  try {
    const rendered = await fileForMarketplace(deps.marketplaces, getProfile(profile), {
      kind,
      asset,
      bytes: original,
    })
    if (kind === 'image') {
      const { width, height } = await sharp(rendered.bytes).metadata()
      if (!width || !height) throw new Error('the rendered export has no size')
      made = { bytes: rendered.bytes, mime: 'image/jpeg', width, height }
    } else {
      const facts = await measureVideoBytes(deps.marketplaces, rendered.bytes)
      made = { bytes: rendered.bytes, mime: 'video/mp4', width: facts.width, height: facts.height }
    }
  } catch (error) {
    // A stored "video" ffmpeg cannot read is the file's fault, not the server's.
    if (error instanceof VideoToolError && error.reason === 'failed') throw notMedia()
    throw error
  }

  const token = newMediaToken()
  const storageKey = publishedStorageKey(token, made.mime)
  await deps.storage.put(storageKey, made.bytes, made.mime, { cacheControl: publishedCacheControl })
  let inserted: PublishedMediaRow | undefined
  try {
    ;[inserted] = await deps.db
      .insert(publishedMedia)
      .values({
        token,
        userId,
        assetId,
        profile,
        storageKey,
        mime: made.mime,
        bytes: made.bytes.length,
        width: made.width,
        height: made.height,
        checksum: createHash('sha256').update(made.bytes).digest('hex'),
      })
      // Two publishes of one image at once: one row wins (the live index), the other's file goes.
      .onConflictDoNothing()
      .returning()
  } catch (error) {
    await deps.storage.delete(storageKey).catch(() => undefined)
    throw error
  }
  if (inserted) return present(deps.config, inserted)
  await deps.storage.delete(storageKey).catch(() => undefined)
  const winner = await liveRow(deps.db, userId, assetId, profile)
  if (!winner) throw new Error('published media: a concurrent publish won, but its row is gone')
  return present(deps.config, winner)
}

/**
 * Stops serving the user's published image: its address answers 404 from now on (a cache that
 * already holds it may keep it until it expires) and its file is removed. Revoking an unknown,
 * another user's or an already revoked token is NOT_FOUND. Publishing the image again gives a
 * new address.
 */
export async function revokeMedia(
  deps: Pick<PublishedMediaDeps, 'db' | 'storage' | 'log'>,
  userId: string,
  token: string,
) {
  const [row] = await deps.db
    .update(publishedMedia)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(publishedMedia.token, token),
        eq(publishedMedia.userId, userId),
        isNull(publishedMedia.revokedAt),
      ),
    )
    .returning({ storageKey: publishedMedia.storageKey })
  if (!row) throw new AppError('NOT_FOUND', 'No such published image')
  await deps.storage.delete(row.storageKey).catch((error: unknown) => {
    deps.log?.error({ err: error, storageKey: row.storageKey }, 'deleting a revoked published image failed')
  })
}

/** What the public route serves for a token: null for an unknown or revoked one (the same to the caller). */
export async function findServedMedia(
  db: Db,
  token: string,
): Promise<Pick<PublishedMediaRow, 'storageKey' | 'mime' | 'bytes' | 'checksum'> | null> {
  if (!tokenPattern.test(token)) return null
  const [row] = await db
    .select({
      storageKey: publishedMedia.storageKey,
      mime: publishedMedia.mime,
      bytes: publishedMedia.bytes,
      checksum: publishedMedia.checksum,
    })
    .from(publishedMedia)
    .where(
      and(
        eq(publishedMedia.token, token),
        isNull(publishedMedia.revokedAt),
        // Its image was deleted: gone at once, before the sweep revokes the row.
        isNotNull(publishedMedia.assetId),
      ),
    )
  return row ?? null
}

/** Rows one sweep statement revokes; the sweep repeats until none are left. */
const sweepBatchSize = 200

/**
 * Revokes published images whose image was deleted (a library item, a generation, an unused
 * upload: their rows lose the asset by `on delete set null`) and removes their files, which with
 * S3_PUBLIC_URL the bucket would otherwise go on serving. Run with the upload sweep in whichever
 * process runs workers; each row is revoked once however many run. Returns how many went.
 */
export async function sweepOrphanedMedia(deps: {
  db: Db
  storage: ObjectStorage
  log: Logger
}): Promise<number> {
  let total = 0
  for (;;) {
    const orphaned = deps.db
      .select({ token: publishedMedia.token })
      .from(publishedMedia)
      .where(and(isNull(publishedMedia.assetId), isNull(publishedMedia.revokedAt)))
      .limit(sweepBatchSize)
    const revoked = await deps.db
      .update(publishedMedia)
      .set({ revokedAt: new Date() })
      .where(and(inArray(publishedMedia.token, orphaned), isNull(publishedMedia.revokedAt)))
      .returning({ storageKey: publishedMedia.storageKey })
    await Promise.all(
      revoked.map(({ storageKey }) =>
        deps.storage.delete(storageKey).catch((error: unknown) => {
          deps.log.error({ err: error, storageKey }, 'deleting an orphaned published image failed')
        }),
      ),
    )
    total += revoked.length
    if (revoked.length < sweepBatchSize) return total
  }
}
