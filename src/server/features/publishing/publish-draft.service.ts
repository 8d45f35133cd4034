import { and, eq } from 'drizzle-orm'
import sharp from 'sharp'
import type { Db } from '#server/db/client.ts'
import { assets, generations } from '#server/db/schema/index.ts'
import { getOwnedRowWithResult } from '#server/features/generations/generations.service.ts'
import type { Logger } from '#server/logger.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { PublishDraftRequest, PublishDraftResponse } from '#shared/contracts/publishing.ts'
import { AppError } from '#shared/errors.ts'
import type { ProductDetails, SeoContent } from '#shared/seo.ts'
import { fillAttributes } from './attribute-filler.ts'
import type { VisionFor } from './attribute-vision.ts'
import { sellerAttributes } from './listing.ts'
import { type ProductColour, productColour } from './product-colour.ts'
import { copyGenerationFor, newestFinished } from './publish.service.ts'
import type { Taxonomy } from './taxonomy.service.ts'

// The attribute form's starting point (POST /api/publications/draft): the category's attributes,
// filled from the seller's own details, the SEO copy and the colour of the product in the seller's
// photo, then, with a vision model configured, the rest chosen from the photo among their allowed
// values; each value says where it came from. Nothing is saved: the seller checks and publishes.

export type DraftDeps = {
  db: Db
  storage: ObjectStorage
  segmenter: Segmenter
  taxonomy: Taxonomy
  /** The vision model bound to a photo (attribute-vision.ts); absent or null: none configured. */
  vision?: VisionFor | null | undefined
}

/** The side the photo is segmented at for its colour: as the marketplace check measures. */
const colourSide = 640

/** The seller's photo (an image result's input, a catalogue row's photo), or null without one. */
export async function sellersPhoto(
  deps: Pick<DraftDeps, 'db' | 'storage'>,
  userId: string,
  assetId: string | null,
): Promise<Buffer | null> {
  if (!assetId) return null
  const [asset] = await deps.db
    .select()
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.userId, userId)))
  if (!asset) return null
  // Stored upright and without metadata (assets.service.ts).
  return deps.storage.get(asset.storageKey)
}

/**
 * The product's colour in the seller's photo; productColour scales the photo to the mask.
 * Segments the photo at 640 px: about the cost of one marketplace check.
 */
export async function colourOfPhoto(
  deps: Pick<DraftDeps, 'segmenter'>,
  photo: Buffer,
): Promise<ProductColour | null> {
  const { data, info } = await sharp(photo)
    .resize({ width: colourSide, height: colourSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const mask = await deps.segmenter.segment({ data, width: info.width, height: info.height, channels: 3 })
  return productColour(photo, { alpha: mask.alpha, width: info.width, height: info.height })
}

/** The product's colour in the seller's photo by its asset, or null without a photo. */
export async function photoColour(
  deps: DraftDeps,
  userId: string,
  assetId: string | null,
): Promise<ProductColour | null> {
  const photo = await sellersPhoto(deps, userId, assetId)
  return photo ? colourOfPhoto(deps, photo) : null
}

/** The newest finished video the user made from an image result (Create's "Make a video"), or null. */
export function videoMadeFrom(db: Db, userId: string, imageGenerationId: string): Promise<string | null> {
  return newestFinished(db, userId, 'video', eq(generations.sourceGenerationId, imageGenerationId))
}

export async function draftAttributes(
  deps: DraftDeps,
  userId: string,
  request: PublishDraftRequest,
  log?: Logger,
): Promise<PublishDraftResponse> {
  const { row: image } = await getOwnedRowWithResult(deps.db, userId, request.imageGenerationId)
  if (image.mode !== 'image' || image.status !== 'succeeded') {
    throw new AppError('VALIDATION_FAILED', 'Only finished image results are published', {
      fields: { imageGenerationId: 'invalid' },
    })
  }
  let details: ProductDetails = image.context
  let copy: SeoContent | null = null
  const copyGenerationId = await copyGenerationFor(deps.db, userId, request.copyGenerationId, image)
  if (copyGenerationId) {
    const { row } = await getOwnedRowWithResult(deps.db, userId, copyGenerationId)
    if (row.status !== 'succeeded' || row.result?.type !== 'seo') {
      throw new AppError('VALIDATION_FAILED', 'The copy must be a finished SEO result', {
        fields: { copyGenerationId: 'invalid' },
      })
    }
    details = { ...row.context, ...details }
    const { title, description, features, keywords } = row.result
    copy = { title, description, features, keywords }
  }
  const read = await deps.taxonomy.attributes(userId, request.marketplace, request.categoryId)
  const { category } = read
  // Hepsiburada lists the item's own fields (price, Image1 …) among them: those are the listing's.
  const attributes = sellerAttributes(request.marketplace, read.attributes)
  const photo = await sellersPhoto(deps, userId, image.inputAssetId)
  const fill = await fillAttributes({
    attributes,
    details,
    copy,
    photoColour: photo ? await colourOfPhoto(deps, photo) : null,
    vision: photo
      ? deps.vision?.(photo, { log, product: { name: details.name, category: category.path.join(' > ') } })
      : undefined,
  })
  return {
    category,
    attributes,
    filled: fill.filled,
    missing: fill.missing.map((attribute) => attribute.id),
    brand: details.brand?.trim() || null,
    copy: copy
      ? { generationId: copyGenerationId ?? '', title: copy.title, description: copy.description }
      : null,
    video: await videoMadeFrom(deps.db, userId, image.id).then((id) => (id ? { generationId: id } : null)),
  }
}
