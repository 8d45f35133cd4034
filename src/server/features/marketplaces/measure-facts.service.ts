import { eq, sql } from 'drizzle-orm'
import { type AssetRow, imageFacts } from '#server/db/schema/index.ts'
import { setNewest } from '#shared/bounded-map.ts'
import type { ImageFacts } from '#shared/marketplaces/facts.ts'
import { productFidelityOf } from './fidelity-facts.ts'
import { keptInspections, type MarketplaceDeps } from './marketplaces.service.ts'
import { type ImageInspection, inspectImage } from './measure-image.ts'
import type { TextReader } from './read-text.ts'

// An image result's facts (size, background, the product's fill, the text on it, the product's
// fidelity to the seller's photo), measured once per file and stored in image_facts: by the
// worker's facts measurer after the job (measureResultFacts), or by the first check or export that
// needs them (inspect, imageFactsOf). Rules are applied to them elsewhere (check-for-marketplace.service.ts).

/** What measuring an image's facts needs: the worker's facts measurer has it as well as the routes. */
export type FactDeps = Pick<MarketplaceDeps, 'db' | 'storage' | 'segmenter' | 'textReader' | 'inspections'>

/**
 * Measures a new image result's facts as its first check would (size, background, the product's
 * fill, the text on it and, with `originalAssetId`, the product's fidelity to the seller's photo)
 * and stores them in image_facts, keeping the first when two processes measure at once. Joins a
 * measurement of the same file under way in this process (a check opened meanwhile joins this
 * one). For the worker's facts measurer, after the job that made the result has settled.
 */
export async function measureResultFacts(
  deps: FactDeps,
  asset: Pick<AssetRow, 'id' | 'storageKey'>,
  originalAssetId: string | null,
): Promise<ImageFacts> {
  return (await inspect(deps, asset, undefined, originalAssetId)).facts
}

/**
 * The image's measurement: the one under way or kept, else a new one (stored in image_facts,
 * keeping the first when two processes measure at once). `bytes` when the caller has read them;
 * `originalAssetId` to measure the product's fidelity to the seller's photo as well.
 */
export function inspect(
  deps: FactDeps,
  asset: Pick<AssetRow, 'id' | 'storageKey'>,
  bytes?: Buffer,
  originalAssetId?: string | null,
): Promise<ImageInspection> {
  const known = deps.inspections.get(asset.id)
  if (known) return known
  const measuring = (async () => {
    const resultBytes = bytes ?? (await deps.storage.get(asset.storageKey))
    // Every result asset is made by a provider (an AI edit or the offline studio's composite).
    const reader = deps.textReader
    const inspection = await inspectImage(resultBytes, {
      isGenerated: true,
      segmenter: deps.segmenter,
      ...(reader ? { readText: (image: Buffer) => reader.read(image) } : {}),
    })
    const productFidelity = originalAssetId
      ? await productFidelityOf(deps, originalAssetId, { bytes: resultBytes, mask: inspection.mask })
      : undefined
    const facts: ImageFacts =
      productFidelity === undefined ? inspection.facts : { ...inspection.facts, productFidelity }
    await deps.db.insert(imageFacts).values({ assetId: asset.id, facts }).onConflictDoNothing()
    return { ...inspection, facts }
  })()
  setNewest(deps.inspections, asset.id, measuring, keptInspections)
  measuring.catch(() => deps.inspections.delete(asset.id))
  return measuring
}

/**
 * The image's facts (measuredImageFacts), with the text on it. Facts without text (`text: null`:
 * stored before OCR existed, or while it could not run) get it read now, OCR alone, and the
 * stored row gains it, so older rows need no migration.
 */
export async function imageFactsOf(
  deps: MarketplaceDeps,
  asset: AssetRow,
  originalAssetId: string | null,
): Promise<ImageFacts> {
  const facts = await measuredImageFacts(deps, asset, originalAssetId)
  return facts.text === null && deps.textReader ? withText(deps, deps.textReader, asset, facts) : facts
}

/** Text reads of stored facts under way, by asset id: one per file however many requests ask. */
const textReads = new Map<string, Promise<ImageFacts>>()

/** `facts` with the image's text read and stored (only the row's text key changes); unchanged when OCR cannot run. */
function withText(
  deps: MarketplaceDeps,
  reader: TextReader,
  asset: Pick<AssetRow, 'id' | 'storageKey'>,
  facts: ImageFacts,
): Promise<ImageFacts> {
  const known = textReads.get(asset.id)
  if (known) return known
  const reading = (async () => {
    const text = await reader.read(await deps.storage.get(asset.storageKey))
    if (text === null) return facts
    await deps.db
      .update(imageFacts)
      .set({ facts: sql`jsonb_set(${imageFacts.facts}, '{text}', ${JSON.stringify(text)}::jsonb)` })
      .where(eq(imageFacts.assetId, asset.id))
    return { ...facts, text }
  })()
  textReads.set(asset.id, reading)
  void reading.finally(() => textReads.delete(asset.id)).catch(() => {})
  return reading
}

/**
 * The image's facts: stored, or measured now (once). Facts stored without the product's fidelity
 * (before the check existed, or by an export or a library summary, which do not ask for it) get
 * it measured once and added to the stored row.
 */
async function measuredImageFacts(
  deps: MarketplaceDeps,
  asset: AssetRow,
  originalAssetId: string | null,
): Promise<ImageFacts> {
  const [stored] = await deps.db
    .select({ facts: imageFacts.facts })
    .from(imageFacts)
    .where(eq(imageFacts.assetId, asset.id))
  if (!stored) return (await inspect(deps, asset, undefined, originalAssetId)).facts
  if (!originalAssetId || stored.facts.productFidelity !== undefined) return stored.facts
  // The result's mask: the kept inspection's, or a fresh one (its insert finds the row and does nothing).
  const bytes = await deps.storage.get(asset.storageKey)
  const { mask } = await inspect(deps, asset, bytes)
  const productFidelity = await productFidelityOf(deps, originalAssetId, { bytes, mask })
  if (productFidelity === undefined) return stored.facts
  const facts = { ...stored.facts, productFidelity }
  await deps.db.update(imageFacts).set({ facts }).where(eq(imageFacts.assetId, asset.id))
  return facts
}
