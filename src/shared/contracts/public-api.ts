import { z } from 'zod'
import { errorCodes } from '#shared/errors.ts'
import { planIds } from '#shared/plans.ts'
import { aspectRatios, sceneViews, viewChoices } from '#shared/scenes.ts'
import { seoLimits } from '#shared/seo.ts'
import { subscriptionStatuses, type UsageResponse } from './billing.ts'
import { batchRowStates, batchStatuses } from './catalogue.ts'
import {
  generationModes,
  generationStatuses,
  generationTools,
  listGenerationsQuerySchema,
} from './generations.ts'
import {
  connectHepsiburadaRequestSchema,
  connectTrendyolRequestSchema,
  type IntegrationView,
  integrationMarketplaces,
} from './integrations.ts'

// The public API's answers (/v1; src/server/v1, decision 31). These are their
// own, versioned shapes rather than the web app's views: only what an integration needs, and
// every link points to a /v1 route (the web views link to cookie-only /api routes). Within v1 a
// change is additive only: new optional fields, new endpoints, new enum values announced first.
// The `.meta({ id })` names become the OpenAPI document's components.

const isoTimestamp = () => z.iso.datetime({ offset: true })

export const publicAssetSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['upload', 'result']),
    mime: z.string().meta({ examples: ['image/jpeg'] }),
    bytes: z.number().int().min(0).meta({ description: 'Size in bytes.' }),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    fileName: z.string().meta({ description: 'The name a download gets.' }),
    createdAt: isoTimestamp(),
  })
  .meta({ id: 'Asset', description: 'A stored file: an upload (the input of generations) or a result.' })
export type PublicAsset = z.infer<typeof publicAssetSchema>

export const publicAssetResponseSchema = z.object({ asset: publicAssetSchema }).meta({ id: 'AssetResponse' })
export type PublicAssetResponse = z.infer<typeof publicAssetResponseSchema>

const resultFileSchema = z
  .object({
    url: z.string().meta({
      description: 'GET it with the same key: `/v1/generations/{id}/result`.',
      examples: ['/v1/generations/7f1c0b7e-9d0a-4c55-9f0e-2b1f3c4d5e6f/result'],
    }),
    mime: z.string().meta({ examples: ['image/jpeg', 'image/png', 'video/mp4'] }),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    fileName: z.string().meta({ description: 'The name the download is given (Content-Disposition).' }),
  })
  .meta({ id: 'ResultFile' })

export const publicGenerationResultSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('image'),
      file: resultFileSchema,
      productKept: z.boolean().nullable().meta({
        description:
          'With keepProduct: true when the original product was laid over the scene, false when no product was found (the scene is as generated). Null when keepProduct was not asked for.',
      }),
      sceneView: z.enum(sceneViews).nullable().meta({
        description:
          'The view the offline studio drew the scene in (`top` or `front`; with `view: auto`, the one it read from the photo). Null for the white studio, fashion, and AI provider results.',
      }),
    }),
    z.object({ type: z.literal('video'), file: resultFileSchema }),
    z.object({
      type: z.literal('seo'),
      title: z.string().meta({ description: `At most ${seoLimits.titleMax} characters.` }),
      description: z.string().meta({ description: `At most ${seoLimits.descriptionMax} characters.` }),
      features: z.array(z.string()),
      keywords: z.array(z.string()),
      colourFromPhoto: z
        .string()
        .nullable()
        .meta({
          description:
            'The colour the copy took from the photo because no `details.color` was given (a guess to check before publishing); null when the seller gave the colour or the copy names none.',
          examples: ['kırmızı'],
        }),
    }),
  ])
  .meta({
    id: 'GenerationResult',
    description:
      'Present once the generation succeeded. Images and videos are files; SEO copy is text (Turkish).',
  })

export const publicGenerationSchema = z
  .object({
    id: z.uuid(),
    tool: z.enum(generationTools),
    mode: z.enum(generationModes),
    aspectRatio: z.enum(aspectRatios),
    prompt: z.string(),
    status: z.enum(generationStatuses).meta({
      description: 'queued → running → succeeded | failed | canceled. The last three are final.',
    }),
    queuePosition: z.number().int().nullable().meta({ description: 'While queued or running, when known.' }),
    isRetrying: z.boolean().meta({ description: 'Queued again after a transient provider failure.' }),
    errorCode: z.string().nullable().meta({
      description: 'Why it failed or was canceled: one of the error codes (e.g. PROVIDER_REJECTED).',
    }),
    keepProduct: z.boolean(),
    view: z.enum(viewChoices).meta({
      description:
        'The view asked for (product images; `auto` for everything else). The one used is `result.sceneView`.',
    }),
    usesOwnKey: z
      .boolean()
      .meta({ description: 'Runs on your own fal key (Settings → API): holds no quota.' }),
    inputAssetId: z.uuid().nullable(),
    sourceGenerationId: z
      .uuid()
      .nullable()
      .meta({ description: 'The image generation a video was made from.' }),
    result: publicGenerationResultSchema.nullable(),
    createdAt: isoTimestamp(),
    startedAt: isoTimestamp().nullable(),
    finishedAt: isoTimestamp().nullable(),
  })
  .meta({ id: 'Generation' })
export type PublicGeneration = z.infer<typeof publicGenerationSchema>

export const publicGenerationResponseSchema = z
  .object({ generation: publicGenerationSchema })
  .meta({ id: 'GenerationResponse' })
export type PublicGenerationResponse = z.infer<typeof publicGenerationResponseSchema>

export const publicGenerationListSchema = z
  .object({
    items: z.array(publicGenerationSchema),
    nextCursor: z.string().nullable().meta({
      description: 'Pass as `cursor` (with the same filters) for the next page; null on the last page.',
    }),
  })
  .meta({ id: 'GenerationList', description: 'One page of generations, newest first.' })
export type PublicGenerationList = z.infer<typeof publicGenerationListSchema>

/**
 * GET /v1/generations: the web list's query without its library-only `saved` filter, strict (an
 * unknown parameter is refused and named, as every /v1 input is).
 */
export const publicListGenerationsQuerySchema = listGenerationsQuerySchema
  .omit({ saved: true })
  .extend({
    cursor: listGenerationsQuerySchema.shape.cursor.meta({
      description: 'Opaque: the previous page’s `nextCursor`, sent with the same filters.',
    }),
    limit: listGenerationsQuerySchema.shape.limit.meta({ description: 'Items per page.' }),
  })
  .strict()

/** GET /v1/generations/{id}/result for SEO copy: the copy itself, as JSON. */
export const publicSeoCopySchema = z
  .object({
    title: z.string(),
    description: z.string(),
    features: z.array(z.string()),
    keywords: z.array(z.string()),
  })
  .meta({ id: 'SeoCopy' })
export type PublicSeoCopy = z.infer<typeof publicSeoCopySchema>

const subscriptionSchema = z.object({
  planId: z.enum(planIds),
  status: z.enum(subscriptionStatuses),
  currentPeriodStart: isoTimestamp(),
  currentPeriodEnd: isoTimestamp(),
  isTrial: z.boolean(),
  autoTopupEnabled: z.boolean(),
  byoApiEnabled: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
  scheduledPlanId: z.enum(planIds).nullable(),
})
const usedOfQuota = z.object({ used: z.number().int(), quota: z.number().int() })

/** GET /v1/usage: the web app's answer (UsageResponse), written out as a schema. */
export const publicUsageSchema = z
  .object({
    period: z
      .object({ start: isoTimestamp(), end: isoTimestamp() })
      .nullable()
      .meta({ description: 'The quota period; `end` is when the quota renews. Null without a plan.' }),
    subscription: subscriptionSchema.nullable(),
    images: usedOfQuota,
    videos: usedOfQuota,
    credits: z
      .object({ images: z.number().int(), videos: z.number().int() })
      .meta({ description: 'Bought units left, used after the plan quota; they never expire.' }),
    seo: z.object({ unlimited: z.literal(true) }),
    storage: z.object({ usedBytes: z.number().int(), quotaBytes: z.number().int() }),
  })
  .meta({ id: 'Usage' })
// The schema and the web app's type must stay one shape: this fails to compile when they part.
type IsSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const usageSchemaMatches: IsSame<z.infer<typeof publicUsageSchema>, UsageResponse> = true
void usageSchemaMatches

export const publicBatchSummarySchema = z
  .object({
    id: z.uuid(),
    status: z.enum(batchStatuses),
    fileName: z.string().meta({ description: 'The product list it was imported from.' }),
    rowCount: z.number().int(),
    productCount: z
      .number()
      .int()
      .meta({ description: 'Rows without problems: the products a start makes.' }),
    presetId: z.string().nullable(),
    createdAt: isoTimestamp(),
    startedAt: isoTimestamp().nullable(),
    finishedAt: isoTimestamp().nullable(),
  })
  .meta({ id: 'BatchSummary' })
export type PublicBatchSummary = z.infer<typeof publicBatchSummarySchema>

export const publicBatchListSchema = z
  .object({ items: z.array(publicBatchSummarySchema) })
  .meta({ id: 'BatchList', description: 'The newest 100 batches, newest first.' })
export type PublicBatchList = z.infer<typeof publicBatchListSchema>

const batchOutputSchema = z.object({
  generationId: z.uuid(),
  tool: z.enum(generationTools),
  mode: z.enum(generationModes),
  status: z.enum(generationStatuses),
  errorCode: z.string().nullable(),
  resultUrl: z.string().nullable().meta({ description: '`/v1/generations/{id}/result` once it succeeded.' }),
})

export const publicBatchSchema = publicBatchSummarySchema
  .extend({
    counts: z
      .object(
        Object.fromEntries(batchRowStates.map((state) => [state, z.number().int()])) as Record<
          (typeof batchRowStates)[number],
          z.ZodNumber
        >,
      )
      .meta({ description: 'Product rows by state.' }),
    etaSeconds: z.number().nullable().meta({ description: 'Expected seconds until finished, when known.' }),
    rows: z.array(
      z.object({
        id: z.uuid(),
        line: z.number().int().meta({ description: 'The line of the product list.' }),
        sku: z.string(),
        name: z.string(),
        state: z.enum(batchRowStates),
        photoAssetId: z.uuid().nullable(),
        outputs: z.array(batchOutputSchema),
      }),
    ),
  })
  .meta({ id: 'Batch', description: 'A catalogue batch with its product rows and their generations.' })
export type PublicBatch = z.infer<typeof publicBatchSchema>

export const publicMarketplaceSchema = z.enum(integrationMarketplaces).meta({
  id: 'Marketplace',
  description: 'A marketplace Vitrin publishes to.',
})

/** A marketplace connection as /api/integrations shows it: the account and a mask, never a secret. */
export const publicConnectionSchema = z
  .object({
    marketplace: publicMarketplaceSchema,
    isConnected: z.boolean(),
    accountId: z
      .string()
      .nullable()
      .meta({
        description: 'The account at the marketplace: the Trendyol seller ID or the Hepsiburada merchant ID.',
        examples: ['123456'],
      }),
    secretMask: z
      .string()
      .nullable()
      .meta({
        description: "The secret's last four characters behind dots; the secret itself is never sent back.",
        examples: ['••••9f3a'],
      }),
    verifiedAt: isoTimestamp().nullable().meta({
      description:
        'When the marketplace last accepted the credentials (on connecting, or a test in the web app).',
    }),
  })
  .meta({ id: 'Connection', description: "The account's connection to one marketplace's seller API." })
export type PublicConnection = z.infer<typeof publicConnectionSchema>

export const publicConnectionResponseSchema = z
  .object({ connection: publicConnectionSchema })
  .meta({ id: 'ConnectionResponse' })
export type PublicConnectionResponse = z.infer<typeof publicConnectionResponseSchema>

// The connection and the web app's view must stay one shape: this fails to compile when they part.
const connectionSchemaMatches: IsSame<PublicConnection, IntegrationView> = true
void connectionSchemaMatches

export const publicTrendyolCredentialsSchema = connectTrendyolRequestSchema
  .extend({
    sellerId: connectTrendyolRequestSchema.shape.sellerId.meta({
      description:
        'The seller ID ("Satıcı ID") from the seller panel: Hesap Bilgilerim → Entegrasyon Bilgileri.',
      examples: ['123456'],
    }),
    apiKey: connectTrendyolRequestSchema.shape.apiKey.meta({
      description: 'The API key from the same page.',
    }),
    apiSecret: connectTrendyolRequestSchema.shape.apiSecret.meta({
      description: 'The API secret from the same page.',
    }),
  })
  .strict()
  .meta({ id: 'TrendyolCredentials', description: 'For PUT /v1/connections/trendyol.' })

export const publicHepsiburadaCredentialsSchema = connectHepsiburadaRequestSchema
  .extend({
    merchantId: connectHepsiburadaRequestSchema.shape.merchantId.meta({
      description: 'The merchant ID from the merchant panel.',
      examples: ['3f1c0b7e-9d0a-4c55-9f0e-2b1f3c4d5e6f'],
    }),
    serviceKey: connectHepsiburadaRequestSchema.shape.serviceKey.meta({
      description: 'The 12-character service key ("Servis Anahtarı") from the merchant panel.',
    }),
  })
  .strict()
  .meta({ id: 'HepsiburadaCredentials', description: 'For PUT /v1/connections/hepsiburada.' })

/** The one error shape (src/shared/errors.ts ErrorBody); `codes` narrows `code` for one answer. */
export function publicErrorSchema(codes: readonly string[] = errorCodes) {
  return z.object({
    error: z.object({
      code: z.enum(codes as [string, ...string[]]).meta({ description: 'Stable; safe to branch on.' }),
      message: z.string().meta({ description: 'English, for logs; may change.' }),
      details: z
        .object({
          fields: z.record(z.string(), z.string()).optional().meta({
            description:
              'VALIDATION_FAILED: each field at fault with a reason (required, invalid, tooLong …).',
          }),
          retryAfterSeconds: z.number().int().optional(),
          line: z.number().int().optional(),
          needed: z.object({ images: z.number().int(), videos: z.number().int() }).optional(),
          available: z.object({ images: z.number().int(), videos: z.number().int() }).optional(),
          fits: z.number().int().optional(),
        })
        .optional(),
      requestId: z
        .string()
        .optional()
        .meta({ description: 'Also in the X-Request-Id header; quote it to support.' }),
    }),
  })
}
