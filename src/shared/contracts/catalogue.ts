import { z } from 'zod'
import { type CatalogueField, type ColumnMapping, catalogueFields } from '#shared/catalogue/columns.ts'
import type { RowProblem } from '#shared/catalogue/row-problems.ts'
import { aspectRatios } from '#shared/scenes.ts'
import { type SeoContent, seoLimits } from '#shared/seo.ts'
import { keywordProblems } from '#shared/seo-facts.ts'
import { safeText } from '#shared/validation.ts'
import type { GenerationAssetView, GenerationMode, GenerationStatus, GenerationTool } from './generations.ts'

// The catalogue API (src/server/features/catalogue): a product list in, a batch of generations
// out. Every answer's shape is here, so the web app and the server agree.
//
// An import has two uploads, so that the photos are checked under the mapping the user confirmed
// and no ZIP has to be kept on a server between steps: the list first (mapping and text checks),
// then the photos (a ZIP, or nothing when the list gives image addresses, which are fetched then).
//
//   POST   /api/catalogue/imports                 multipart: `list` (CSV/XLSX)
//                                                 → 201 CatalogueImportView (a draft batch; photosChecked false)
//   PUT    /api/catalogue/batches/:id/mapping     UpdateMappingRequest → CatalogueImportView
//                                                 (a changed mapping drops checked photos: photosChecked false)
//   POST   /api/catalogue/batches/:id/photos      multipart: `photos` (ZIP), or no file when the list has
//                                                 image addresses → CatalogueImportView (photosChecked true)
//   POST   /api/catalogue/batches/:id/start       StartBatchRequest → BatchView (needs photosChecked)
//                                                 (CATALOGUE_QUOTA_SHORT with details.fits when short)
//   GET    /api/catalogue/batches                 → BatchListResponse
//   GET    /api/catalogue/batches/:id             → BatchView
//   GET    /api/catalogue/batches/:id/events      server-sent events: `batch` (BatchView) on change
//   POST   /api/catalogue/batches/:id/cancel      → BatchView (what has not started is canceled)
//   POST   /api/catalogue/batches/:id/retry       → BatchView (failed rows queued again)
//   DELETE /api/catalogue/batches/:id             → 204 (a draft only)
//   GET    /api/catalogue/batches/:id/export      → application/zip, streamed
//   GET    /api/catalogue/mapping                 → SavedMappingResponse
//
// The review of one product of a started batch (404 for another's batch or a row that is not
// one of its products):
//
//   GET    /api/catalogue/batches/:id/rows/:rowId/copy        → RowCopyView
//   PUT    /api/catalogue/batches/:id/rows/:rowId/copy        RowCopyRequest → RowCopyView (the edit stored)
//   DELETE /api/catalogue/batches/:id/rows/:rowId/copy        → RowCopyView (back to the generated copy)
//   PUT    /api/catalogue/batches/:id/rows/:rowId/exclusions  RowExclusionsRequest → BatchView
//   POST   /api/catalogue/batches/:id/rows/:rowId/regenerate  RegenerateRowRequest → BatchView
//                                                 (CATALOGUE_ROW_BUSY while its outputs run;
//                                                 CATALOGUE_QUOTA_SHORT when images or videos do not fit)

export const batchStatuses = ['draft', 'running', 'finished', 'canceled'] as const
export type BatchStatus = (typeof batchStatuses)[number]

/** A batch as the list shows it. */
export type BatchSummary = {
  id: string
  status: BatchStatus
  fileName: string
  /** Rows in the list, and those without problems (the products a start makes). */
  rowCount: number
  productCount: number
  presetId: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
}

/** The first rows of the list, as the preview shows them (cells cut to the field limit). */
export type PreviewRow = { line: number; cells: string[] }

/** POST /api/catalogue/imports and PUT …/mapping: the draft batch to map, check and start. */
export type CatalogueImportView = {
  batch: BatchSummary
  headers: string[]
  mapping: ColumnMapping
  /** The first rows (at most previewRowCount). */
  sampleRows: PreviewRow[]
  /** Every problem of every bad row, by line. */
  problems: RowProblem[]
  /** How many photos the ZIP held, when one was given. */
  zipPhotoCount: number | null
  /**
   * Whether the photos were checked (and stored) under the current mapping. Until then the
   * problems are those of the text alone, and the batch cannot start.
   */
  photosChecked: boolean
  /** Whether the mapped photo columns hold file names (a ZIP is needed) or only addresses. */
  needsZip: boolean
}

export const previewRowCount = 10

export const updateMappingRequestSchema = z.object({
  /** Field → zero-based column; a field left out is not mapped. */
  mapping: z.partialRecord(z.enum(catalogueFields), z.number().int().min(0).max(500)),
})
export type UpdateMappingRequest = z.input<typeof updateMappingRequestSchema>

/** What a batch makes for each product (at least one output). */
export const batchOutputsSchema = z
  .object({
    studio: z
      .object({
        prompt: safeText().trim().min(1).max(1000),
        aspectRatio: z.enum(aspectRatios).default('1:1'),
      })
      .optional(),
    fashion: z.object({ aspectRatio: z.enum(aspectRatios).default('9:16') }).optional(),
    video: z.object({ prompt: safeText().trim().max(1000).default('') }).optional(),
    seo: z.boolean().optional(),
  })
  .refine((outputs) => Boolean(outputs.studio || outputs.fashion || outputs.video || outputs.seo), {
    message: 'choose at least one output',
    path: ['studio'],
  })
export type BatchOutputs = z.output<typeof batchOutputsSchema>

export const startBatchRequestSchema = z.object({
  outputs: batchOutputsSchema,
  /**
   * A marketplace preset id, stored with the batch; when it names a profile
   * (src/shared/marketplaces/profiles.ts), the export renders files and fits copy for it.
   */
  presetId: safeText().trim().max(40).nullable().default(null),
  /**
   * Start only the first N products (after a CATALOGUE_QUOTA_SHORT answer said how many fit);
   * without it, every product or nothing.
   */
  limitRows: z.number().int().min(1).max(1000).optional(),
})
export type StartBatchRequest = z.input<typeof startBatchRequestSchema>

/** Details of CATALOGUE_QUOTA_SHORT: what the batch needs, what is left, and how many rows fit. */
export type QuotaShortDetails = {
  needed: { images: number; videos: number }
  available: { images: number; videos: number }
  fits: number
}

/** The state of one product row, from its generations. */
export const batchRowStates = ['queued', 'running', 'done', 'failed', 'canceled'] as const
export type BatchRowState = (typeof batchRowStates)[number]

/** One output of a row: a generation of the batch. */
export type BatchOutputView = {
  generationId: string
  tool: GenerationTool
  mode: GenerationMode
  status: GenerationStatus
  errorCode: string | null
  /** The result's picture (image, or the video's poster), when done. */
  thumbnail: GenerationAssetView | null
}

export type BatchRowView = {
  id: string
  line: number
  sku: string
  name: string
  state: BatchRowState
  /** The row's photo. */
  photo: GenerationAssetView | null
  /** The newest output of each kind (a regenerated output replaces the one before it). */
  outputs: BatchOutputView[]
  /** Whether the seller edited the copy (the export uses the edit). */
  isCopyEdited: boolean
  /** Outputs (generation ids) the seller left out of the export. */
  excludedResults: string[]
}

export type BatchCounts = { queued: number; running: number; done: number; failed: number; canceled: number }

export type BatchView = {
  batch: BatchSummary
  outputs: BatchOutputs | null
  /** Counts of product rows by state. */
  counts: BatchCounts
  /** Seconds until the batch is expected to finish (from its pace so far), null when unknown. */
  etaSeconds: number | null
  rows: BatchRowView[]
}

export type BatchListResponse = { batches: BatchSummary[] }

export type SavedMappingResponse = { mapping: Partial<Record<CatalogueField, string | null>> }

// --- Review before export ------------------------------------------------------------------------

/** Longest feature line and keyword the seller can save (the copy's own limits are seoLimits). */
export const reviewLimits = { featureMax: 200, keywordMax: 60 } as const

const oneLine = (value: string) => !/[\r\n]/.test(value)

/**
 * The seller's copy for one product: the SEO copy's limits (seoLimits), plain text on one line
 * (the description may break lines), and keywords a marketplace's comma-separated field takes
 * (no separator, category path or promotional phrase: seo-facts.ts keywordProblems). Features
 * are kept to the generated copy's count (4 to 6); keywords may be fewer than ten.
 */
export const rowCopyRequestSchema = z.object({
  title: safeText().trim().min(1).max(seoLimits.titleMax).refine(oneLine),
  description: safeText().trim().min(1).max(seoLimits.descriptionMax),
  features: z
    .array(safeText().trim().min(1).max(reviewLimits.featureMax).refine(oneLine))
    .min(seoLimits.featuresMin)
    .max(seoLimits.featuresMax),
  keywords: z
    .array(
      safeText()
        .trim()
        .min(1)
        .max(reviewLimits.keywordMax)
        .refine((keyword) => oneLine(keyword) && keywordProblems(keyword).length === 0),
    )
    .min(1)
    .max(seoLimits.keywords),
})
export type RowCopyRequest = z.input<typeof rowCopyRequestSchema>

/** One product's copy as the review shows it. */
export type RowCopyView = {
  rowId: string
  /** The copy the newest finished SEO output wrote; null when there is none (yet). */
  generated: SeoContent | null
  /** The seller's edit; null when the generated copy stands. */
  edited: SeoContent | null
  /** The brand the product's row gives (the marketplace checker's brand rule), null when none. */
  brand: string | null
}

/** The outputs of one product to leave out of the export (all others go out). */
export const rowExclusionsRequestSchema = z.object({
  excluded: z.array(z.uuid()).max(20),
})
export type RowExclusionsRequest = z.input<typeof rowExclusionsRequestSchema>

/** Makes one product's outputs again: every output of the batch, or only its SEO copy. */
export const regenerateRowRequestSchema = z.object({ scope: z.enum(['all', 'seo']) })
export type RegenerateRowRequest = z.input<typeof regenerateRowRequestSchema>
