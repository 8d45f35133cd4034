import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { assets } from '#server/db/schema/index.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import { type ObjectStorage, StorageNotFoundError } from '#server/storage/types.ts'
import type { ProductFidelity } from '#shared/marketplaces/facts.ts'
import type { ProductMask } from './measure-image.ts'
import { measureProductFidelity, productViewOf } from './product-fidelity.ts'

// The product-fidelity fact of a result (facts.productFidelity), for measure-facts.service.ts: the
// generation's input photo is read and segmented, and compared with the result, whose mask comes
// from the result's own inspection. Computed once per result and stored with its facts.

export type FidelityDeps = { db: Db; storage: ObjectStorage; segmenter: Pick<Segmenter, 'segment'> }

/**
 * The result compared with the seller's photo `originalAssetId`. Undefined when the photo is gone
 * (its row or its file), so the check leaves the rule out; null when the product could not be
 * outlined in one of the two images (or the photo cannot be decoded), so the check says "check by
 * eye".
 */
export async function productFidelityOf(
  deps: FidelityDeps,
  originalAssetId: string,
  result: { bytes: Buffer; mask: ProductMask | null },
): Promise<ProductFidelity | null | undefined> {
  const [original] = await deps.db
    .select({ storageKey: assets.storageKey })
    .from(assets)
    .where(eq(assets.id, originalAssetId))
  if (!original) return undefined
  let bytes: Buffer
  try {
    bytes = await deps.storage.get(original.storageKey)
  } catch (error) {
    if (error instanceof StorageNotFoundError) return undefined
    throw error
  }
  // Without the result's product there is nothing to compare: no need to segment the photo.
  if (!result.mask) return null
  const view = await productViewOf(bytes, deps.segmenter).catch(() => null)
  return measureProductFidelity(view, result)
}
