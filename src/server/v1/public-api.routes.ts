import { existsSync, readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { createRoute, OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { z } from 'zod'
import type { Db } from '#server/db/client.ts'
import {
  type AssetDeps,
  admitUpload,
  presentAsset,
  storeUpload,
  uploadMaxBytes,
} from '#server/features/assets/assets.service.ts'
import {
  type CatalogueDeps,
  getBatchView,
  listBatches,
} from '#server/features/catalogue/catalogue.service.ts'
import { admitGeneration, createGeneration } from '#server/features/generations/create-generation.service.ts'
import {
  cancelGeneration,
  type GenerationDeps,
  getGeneration,
  getOwnedRowWithResult,
  listGenerations,
} from '#server/features/generations/generations.service.ts'
import {
  type ConnectionsDeps,
  connectHepsiburada,
  connectTrendyol,
  disconnect,
  listConnections,
} from '#server/features/publishing/connections.service.ts'
import { getUsage } from '#server/features/quota/usage.service.ts'
import { attachmentHeader } from '#server/http/attachment.ts'
import type { AppEnv } from '#server/http/context.ts'
import { validationError } from '#server/http/errors.ts'
import { receiveSingleFile } from '#server/http/multipart.ts'
import { currentUser } from '#server/http/session.ts'
import { projectFile } from '#server/runtime-files.ts'
import { StorageNotFoundError } from '#server/storage/types.ts'
import { apiKeyPrefix } from '#shared/contracts/api-keys.ts'
import { createGenerationRequestSchema, generationModes } from '#shared/contracts/generations.ts'
import { type IntegrationMarketplace, integrationMarketplaces } from '#shared/contracts/integrations.ts'
import {
  publicAssetResponseSchema,
  publicBatchListSchema,
  publicBatchSchema,
  publicConnectionResponseSchema,
  publicGenerationListSchema,
  publicGenerationResponseSchema,
  publicHepsiburadaCredentialsSchema,
  publicListGenerationsQuerySchema,
  publicSeoCopySchema,
  publicTrendyolCredentialsSchema,
  publicUsageSchema,
} from '#shared/contracts/public-api.ts'
import { webhookEventSchemas } from '#shared/contracts/webhook-events.ts'
import {
  type AnyWebhookEventType,
  webhookAttemptTimeoutSeconds,
  webhookHeaders,
  webhookRetryWindowHours,
  webhookTestEventType,
} from '#shared/contracts/webhooks.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'
import { viewChoices } from '#shared/scenes.ts'
import { productDetailsSchema, seoLimits } from '#shared/seo.ts'
import { toFieldErrors } from '#shared/validation.ts'
import {
  errorResponses,
  idempotencyErrors,
  idempotencyKeyParameter,
  jsonBodyErrors,
  rateLimitHeaders,
} from './public-api.openapi.ts'
import {
  toPublicAsset,
  toPublicBatch,
  toPublicBatchSummary,
  toPublicGeneration,
} from './public-api.present.ts'

// The public API (/v1; docs/public-api.md, decision 31): the web app's services
// behind API keys, described by an OpenAPI 3.1 document generated from these route definitions.
// app.ts mounts these routes after requireApiKey, so every handler has a user.

export type PublicApiDeps = {
  db: Db
  now: () => Date
  assets: AssetDeps
  generations: GenerationDeps
  catalogue: CatalogueDeps
  connections: ConnectionsDeps
}

/** The one path that takes a file upload (app.ts keeps the 64 KB JSON limit off it). */
export const publicUploadPath = '/v1/assets'

const idParams = z.object({
  id: z.string().meta({
    param: { name: 'id', in: 'path' },
    description: 'The id (a UUID). Another account’s id, or one that does not exist, answers 404.',
  }),
})

const binaryFile = (description: string) => ({ type: 'string' as const, format: 'binary', description })

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  headers: rateLimitHeaders,
  content: { 'application/json': { schema } },
})

/**
 * The route's own answers, its error answers, and for POSTs the Idempotency-Key parameter;
 * every operation needs the bearer key.
 */
function operation<const R extends Parameters<typeof createRoute>[0]>(
  route: R,
  errors: readonly ErrorCode[],
): R {
  return {
    ...route,
    // Every query is strict: a parameter the operation does not know is refused, not ignored.
    request: { query: noQuery, ...route.request },
    security: [{ bearerAuth: [] }],
    ...(route.method === 'post' ? { parameters: [idempotencyKeyParameter] } : {}),
    responses: {
      ...route.responses,
      ...errorResponses(route.method === 'post' ? [...errors, ...idempotencyErrors] : errors),
    },
  }
}

/** The query of an operation that takes no parameters: any parameter is refused, named. */
const noQuery = z.strictObject({})

/**
 * JSON bodies: a body that says it is something else is 415 UNSUPPORTED_MEDIA_TYPE. A body with
 * no Content-Type at all is refused the same way by the route library's own check (mapped to our
 * error shape in http/errors.ts).
 */
const requireJsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header('content-type')
  if (type && !/^application\/([a-z.-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON, with Content-Type: application/json')
  }
  await next()
}

/**
 * An operation that takes no body (a cancel): a body sent anyway is refused, not ignored, with
 * what it holds named (the keys of a JSON object, else the body as a whole, `_root`).
 */
const refuseBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const text = await c.req.text()
  if (text.trim() !== '') {
    let fields: Record<string, 'unknown'> = { _root: 'unknown' }
    try {
      const parsed: unknown = JSON.parse(text)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length > 0) {
        fields = Object.fromEntries(Object.keys(parsed).map((key) => [key, 'unknown' as const]))
      }
    } catch {
      // Not JSON: the body as a whole is what is refused.
    }
    throw new AppError(
      'VALIDATION_FAILED',
      `This operation takes no body: ${Object.keys(fields).join(', ')}`,
      {
        fields,
      },
    )
  }
  await next()
}

const uploadRoute = createRoute(
  operation(
    {
      method: 'post',
      path: '/assets',
      operationId: 'createAsset',
      tags: ['Assets'],
      summary: 'Upload a product photo',
      description: `A JPEG, PNG or WebP of at most ${uploadMaxBytes / 1024 / 1024} MB and 50 megapixels, as \`multipart/form-data\` with one file. It is checked by its bytes, turned upright by its EXIF orientation and stored without metadata. Use its \`id\` as \`imageAssetId\` of a generation.`,
      request: {
        body: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: {
                    type: 'string',
                    format: 'binary',
                    description: 'The photo (JPEG, PNG or WebP), with its file name.',
                  },
                },
              },
              encoding: { file: { contentType: 'image/jpeg, image/png, image/webp' } },
            },
          },
        },
      },
      responses: { 201: json(publicAssetResponseSchema, 'The stored photo.') },
    },
    [
      'NO_SUBSCRIPTION',
      'FILE_MISSING',
      'FILE_TYPE_INVALID',
      'FILE_TOO_LARGE',
      'IMAGE_TOO_LARGE',
      'IMAGE_UNREADABLE',
      'STORAGE_QUOTA_EXCEEDED',
    ],
  ),
)

/**
 * The seller's product details, documented for integrators: facts the SEO copy keeps unchanged
 * (shared/seo-facts.ts), with the shared schema's limits.
 */
const productDetailsBody = productDetailsSchema
  .extend({
    name: productDetailsSchema.shape.name.meta({
      description: 'The product name; the SEO title carries it as written.',
      examples: ['Türk Kahvesi Fincan Takımı'],
    }),
    color: productDetailsSchema.shape.color.meta({
      description:
        "The product's colour as the seller names it. The copy uses it unchanged and names no other colour; without it the colour is read from the photo and the result says so (`colourFromPhoto`).",
      examples: ['Kırmızı'],
    }),
    description: productDetailsSchema.shape.description.meta({
      description:
        "The seller's own description; its first sentence is kept word for word in the meta description.",
      examples: ['İki kişilik el yapımı porselen fincan takımı. Bulaşık makinesinde yıkanabilir.'],
    }),
    features: productDetailsSchema.shape.features.meta({
      description: `The seller's key features, one per item (up to ${seoLimits.featuresMax}, each at most 100 characters); each appears unchanged among the copy's features.`,
      examples: [['2 kişilik takım', '90 ml fincan']],
    }),
  })
  .strict()
  .meta({
    id: 'ProductDetails',
    description:
      "Facts about the product, all optional, used for SEO copy: each one given appears unchanged where it belongs and is never contradicted. A language model's copy that breaks one, even when asked again, fails with SEO_FACTS_BROKEN.",
    examples: [
      {
        name: 'Türk Kahvesi Fincan Takımı',
        brand: 'Atölye',
        material: 'porselen',
        color: 'Kırmızı',
        description: 'İki kişilik el yapımı porselen fincan takımı. Bulaşık makinesinde yıkanabilir.',
        features: ['2 kişilik takım', '90 ml fincan'],
      },
    ],
  })

/**
 * POST /v1/generations: the web app's request (createGenerationRequestSchema), strict, so that an
 * unknown field (`aspect_ratio` for `aspectRatio`, say) is refused and named instead of ignored.
 * The web app's /api route keeps the shared schema as it is (it strips what it does not know).
 */
const createGenerationBody = createGenerationRequestSchema
  .extend({
    mode: z.enum(generationModes).meta({
      description:
        '`image` (a product photo in a new scene; with `tool: fashion`, the garment on a model), `video`, or `seo` (Turkish listing copy). Anything else is INVALID_GENERATION_MODE.',
      examples: ['image'],
    }),
    details: productDetailsBody.optional(),
    view: z
      .enum(viewChoices)
      .default('auto')
      .meta({
        description:
          'Product images: the scene seen from above (`top`: the surface fills the frame, for a product photographed from above such as a cup or a flat-laid item), from the front (`front`: a surface and a wall, for a product standing on its base), or `auto` (the default) for the view that matches the photo: the offline studio reads it from the outline of the cut-out product. With an AI image provider, `top` and `front` are added to the prompt as a camera hint and `auto` adds nothing. The white studio has one view. Ignored by other tools and modes.',
        examples: ['auto', 'top'],
      }),
  })
  .strict()
  .meta({ id: 'CreateGenerationRequest' })

const createGenerationRoute = createRoute(
  operation(
    {
      method: 'post',
      path: '/generations',
      operationId: 'createGeneration',
      tags: ['Generations'],
      summary: 'Start a generation',
      description:
        'Accepted at once (202) and queued; quota is held now and used when it succeeds, given back when it fails or is canceled. Follow it with GET /v1/generations/{id} (or a webhook).',
      middleware: requireJsonBody,
      request: {
        body: { required: true, content: { 'application/json': { schema: createGenerationBody } } },
      },
      responses: { 202: json(publicGenerationResponseSchema, 'Accepted and queued.') },
    },
    [
      ...jsonBodyErrors,
      'INVALID_GENERATION_MODE',
      'NOT_FOUND',
      'NO_SUBSCRIPTION',
      'QUOTA_EXCEEDED_IMAGES',
      'QUOTA_EXCEEDED_VIDEOS',
      'AUTO_TOPUP_FAILED',
      'AUTO_TOPUP_CAP_REACHED',
      'BILLING_PROVIDER_UNAVAILABLE',
      'STORAGE_QUOTA_EXCEEDED',
      'QUEUE_FULL',
      'SEO_NEEDS_PRODUCT_NAME',
    ],
  ),
)

const listGenerationsRoute = createRoute(
  operation(
    {
      method: 'get',
      path: '/generations',
      operationId: 'listGenerations',
      tags: ['Generations'],
      summary: 'List generations',
      description:
        'Newest first, in pages of `limit`. Filter by `mode`, `tool` and `status`; follow `nextCursor` (an opaque string) with the same filters.',
      request: { query: publicListGenerationsQuerySchema },
      responses: { 200: json(publicGenerationListSchema, 'One page.') },
    },
    ['VALIDATION_FAILED'],
  ),
)

const getGenerationRoute = createRoute(
  operation(
    {
      method: 'get',
      path: '/generations/{id}',
      operationId: 'getGeneration',
      tags: ['Generations'],
      summary: 'Get a generation',
      request: { params: idParams },
      responses: { 200: json(publicGenerationResponseSchema, 'The generation as it is now.') },
    },
    ['NOT_FOUND'],
  ),
)

const cancelGenerationRoute = createRoute(
  operation(
    {
      method: 'post',
      path: '/generations/{id}/cancel',
      operationId: 'cancelGeneration',
      tags: ['Generations'],
      summary: 'Cancel a generation',
      description:
        'A queued generation stops at once and its quota comes back; a running one is stopped by its worker shortly after (status `canceled`, `errorCode` GENERATION_CANCELED). A finished one is answered as it is. It takes no body: one sent anyway is refused (400 VALIDATION_FAILED, naming what it holds).',
      middleware: refuseBody,
      request: { params: idParams },
      responses: { 200: json(publicGenerationResponseSchema, 'The generation after the cancel.') },
    },
    ['NOT_FOUND'],
  ),
)

const resultRoute = createRoute(
  operation(
    {
      method: 'get',
      path: '/generations/{id}/result',
      operationId: 'getGenerationResult',
      tags: ['Generations'],
      summary: 'Download the result',
      description:
        'The finished image (JPEG or PNG) or video (MP4) as a file, with its download name in Content-Disposition. For an SEO generation the result is its copy, as JSON (also named, `….json`). Before the generation succeeded: 409 GENERATION_NOT_READY.',
      request: { params: idParams },
      responses: {
        200: {
          description: 'The file, or for SEO the copy.',
          headers: {
            ...rateLimitHeaders,
            'Content-Disposition': {
              description: 'attachment; filename="…"',
              schema: { type: 'string' },
            },
          },
          content: {
            'image/jpeg': { schema: binaryFile('An image result (JPEG).') },
            'image/png': { schema: binaryFile('An image result (PNG).') },
            'video/mp4': { schema: binaryFile('A video result (MP4).') },
            'application/json': { schema: publicSeoCopySchema },
          },
        },
      },
    },
    ['NOT_FOUND', 'GENERATION_NOT_READY'],
  ),
)

const usageRoute = createRoute(
  operation(
    {
      method: 'get',
      path: '/usage',
      operationId: 'getUsage',
      tags: ['Account'],
      summary: 'Usage and quotas',
      description: "The billing period's usage against the plan's quotas, bought credits and storage.",
      responses: { 200: json(publicUsageSchema, 'The same numbers the web app shows.') },
    },
    [],
  ),
)

const listBatchesRoute = createRoute(
  operation(
    {
      method: 'get',
      path: '/batches',
      operationId: 'listBatches',
      tags: ['Catalogue'],
      summary: 'List catalogue batches',
      description:
        'Batches made from product lists in the web app (Catalogue). Read-only here: importing and starting a batch is done in the web app.',
      responses: { 200: json(publicBatchListSchema, 'The newest 100 batches.') },
    },
    [],
  ),
)

const getBatchRoute = createRoute(
  operation(
    {
      method: 'get',
      path: '/batches/{id}',
      operationId: 'getBatch',
      tags: ['Catalogue'],
      summary: 'Get a catalogue batch',
      description:
        "A batch's progress: each product row's state and its generations, with their result links.",
      request: { params: idParams },
      responses: { 200: json(publicBatchSchema, 'The batch as it is now.') },
    },
    ['NOT_FOUND'],
  ),
)

const marketplaceParams = z.object({
  marketplace: z.string().meta({
    param: { name: 'marketplace', in: 'path' },
    description: 'The marketplace: `trendyol` or `hepsiburada`. Any other answers 404.',
    examples: ['trendyol'],
  }),
})

/** The path's marketplace; any other is not there (404), as on /api/integrations. */
function marketplaceOf(value: string): IntegrationMarketplace {
  if (!(integrationMarketplaces as readonly string[]).includes(value)) {
    throw new AppError('NOT_FOUND', 'No such marketplace')
  }
  return value as IntegrationMarketplace
}

/** The marketplace's refusals of credentials (connections.service.ts verifyOrExplain). */
const marketplaceRefusals = [
  'MARKETPLACE_KEYS_REFUSED',
  'MARKETPLACE_ACCOUNT_MISMATCH',
  'MARKETPLACE_BUSY',
  'MARKETPLACE_UNAVAILABLE',
] as const satisfies readonly ErrorCode[]

const upsertConnectionRoute = createRoute(
  operation(
    {
      method: 'put',
      path: '/connections/{marketplace}',
      operationId: 'upsertConnection',
      tags: ['Connections'],
      summary: 'Connect a marketplace account',
      description:
        "Connects the account to the marketplace's seller API, or replaces its credentials: `TrendyolCredentials` for `trendyol`, `HepsiburadaCredentials` for `hepsiburada`. The marketplace is asked first, with one small read under the account; the credentials are saved, encrypted, only once it accepts them, and are never sent back (only the account and the secret's last four characters). A refusal says why: MARKETPLACE_KEYS_REFUSED (wrong key or secret), MARKETPLACE_ACCOUNT_MISMATCH (the keys belong to another seller ID or merchant ID), MARKETPLACE_BUSY (the marketplace is limiting requests or blocking this server's address; try again later), MARKETPLACE_UNAVAILABLE (it did not answer). The same request again changes nothing.",
      middleware: requireJsonBody,
      request: {
        params: marketplaceParams,
        body: {
          required: true,
          content: {
            'application/json': {
              schema: z.union([publicTrendyolCredentialsSchema, publicHepsiburadaCredentialsSchema]),
            },
          },
        },
      },
      responses: { 200: json(publicConnectionResponseSchema, 'Connected: the account and the mask.') },
    },
    [...jsonBodyErrors, 'NOT_FOUND', ...marketplaceRefusals],
  ),
)

const getConnectionRoute = createRoute(
  operation(
    {
      method: 'get',
      path: '/connections/{marketplace}',
      operationId: 'getConnection',
      tags: ['Connections'],
      summary: 'Get a marketplace connection',
      description:
        'Whether the account is connected to the marketplace, with which account there, and when the marketplace last accepted the credentials.',
      request: { params: marketplaceParams },
      responses: { 200: json(publicConnectionResponseSchema, 'The connection, connected or not.') },
    },
    ['NOT_FOUND'],
  ),
)

const deleteConnectionRoute = createRoute(
  operation(
    {
      method: 'delete',
      path: '/connections/{marketplace}',
      operationId: 'deleteConnection',
      tags: ['Connections'],
      summary: 'Disconnect a marketplace account',
      description:
        'Forgets the credentials; nothing is sent to the marketplace. Disconnecting an account that is not connected answers the same.',
      request: { params: marketplaceParams },
      responses: { 200: json(publicConnectionResponseSchema, 'Disconnected (`isConnected: false`).') },
    },
    ['NOT_FOUND'],
  ),
)

/** The account's connection to one marketplace, as GET /v1/connections/{marketplace} answers it. */
async function connectionOf(deps: ConnectionsDeps, userId: string, marketplace: IntegrationMarketplace) {
  const { integrations } = await listConnections(deps, userId)
  const connection = integrations.find((view) => view.marketplace === marketplace)
  if (!connection) throw new Error(`listConnections left out ${marketplace}`)
  return { connection }
}

const webhookDescriptions: Record<AnyWebhookEventType, string> = {
  'generation.succeeded': 'A generation succeeded.',
  'generation.failed': 'A generation failed or was canceled.',
  'batch.completed': 'Every output of a catalogue batch has settled.',
  'publication.succeeded': 'A product published to a marketplace went live.',
  'publication.failed': 'A product published to a marketplace was rejected or could not be sent.',
  'webhook.test': 'The test event of “Send test event” (Settings → API).',
}

/**
 * The document's `webhooks`: one POST per event type, as features/webhooks/deliver.ts sends it
 * to an endpoint added in Settings → API (signed; docs/examples/verify-signature.ts checks it).
 */
function registerWebhooks(app: OpenAPIHono<AppEnv>) {
  for (const [type, schema] of Object.entries(webhookEventSchemas) as [AnyWebhookEventType, z.ZodType][]) {
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `${type.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase())}Webhook`,
      tags: ['Webhooks'],
      summary: webhookDescriptions[type],
      description: `Sent to each enabled endpoint subscribed to \`${type}\`${type === webhookTestEventType ? ' (the one the test was asked for; it cannot be subscribed to)' : ''}: a POST with this JSON body. Verify \`${webhookHeaders.signature}\` against the raw body before parsing it. Answer with any 2xx within ${webhookAttemptTimeoutSeconds} seconds; anything else (a redirect, an error, no answer) is tried again with growing pauses for ${webhookRetryWindowHours} hours.`,
      request: {
        headers: z.object({
          [webhookHeaders.signature]: z.string().meta({
            description:
              '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint’s whsec_ secret>`. Refuse a `t` more than five minutes from your clock.',
          }),
          [webhookHeaders.eventId]: z
            .uuid()
            .meta({ description: 'The event’s `id`: the same on a retry or a resend.' }),
          [webhookHeaders.eventType]: z.literal(type),
        }),
        body: { required: true, content: { 'application/json': { schema } } },
      },
      responses: {
        200: { description: 'Any 2xx: delivered. Only the status is read (at most 4 KB of the body).' },
      },
    })
  }
}

/** Extension of a stored result's file name, for the SEO copy's download name. */
function seoFileName(id: string): string {
  return `vitrin-seo-${id.slice(0, 8)}.json`
}

/** The /v1 routes, relative to /v1. app.ts mounts them behind requireApiKey. */
export function publicApiRoutes(deps: PublicApiDeps) {
  const app = new OpenAPIHono<AppEnv>({
    // A failed check answers our one error shape (VALIDATION_FAILED with the fields), as on /api.
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, (result as { data?: unknown }).data)
    },
  })
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: `An API key from Settings → API (Pro plan): \`${apiKeyPrefix}\` and 43 letters and digits, sent as \`Authorization: Bearer ${apiKeyPrefix}…\`. Keep it on your server; it is shown once and can be revoked at any time. Cookies are never accepted here.`,
  })

  registerWebhooks(app)

  app.openapi(uploadRoute, async (c) => {
    const userId = currentUser(c).id
    // Limits and the plan are checked before the body is read (as on /api/assets).
    const subscription = await admitUpload(deps.assets, userId, c.get('clientIp'))
    // The document's one part, `file`; any other part is refused and named.
    const file = await receiveSingleFile(c.req.raw, uploadMaxBytes, { onlyField: 'file' })
    const asset = await storeUpload(deps.assets, userId, { bytes: file.bytes, name: file.name }, subscription)
    deps.assets.photoArrived?.(asset)
    return c.json({ asset: toPublicAsset(presentAsset(asset)) }, 201)
  })

  app.openapi(
    createGenerationRoute,
    async (c) => {
      const userId = currentUser(c).id
      const admission = admitGeneration(deps.generations, userId, c.get('clientIp'))
      admission.catch(() => undefined)
      const view = await createGeneration(deps.generations, userId, c.req.valid('json'), admission)
      return c.json({ generation: toPublicGeneration(view) }, 202)
    },
    (result): undefined => {
      if (result.success) return
      const { error, data } = result as { error: z.ZodError; data?: unknown }
      // As on /api: a mode outside the enum, with nothing else at fault, has its own code.
      const fields = toFieldErrors(error, data)
      if (fields.mode === 'invalid' && Object.keys(fields).length === 1) {
        throw new AppError('INVALID_GENERATION_MODE', 'mode must be image, video or seo')
      }
      throw validationError(error, data)
    },
  )

  app.openapi(listGenerationsRoute, async (c) => {
    const page = await listGenerations(deps.generations, currentUser(c).id, c.req.valid('query'))
    return c.json({ items: page.items.map(toPublicGeneration), nextCursor: page.nextCursor }, 200)
  })

  app.openapi(getGenerationRoute, async (c) => {
    const view = await getGeneration(deps.generations, currentUser(c).id, c.req.valid('param').id)
    return c.json({ generation: toPublicGeneration(view) }, 200)
  })

  app.openapi(cancelGenerationRoute, async (c) => {
    const view = await cancelGeneration(deps.generations, currentUser(c).id, c.req.valid('param').id)
    return c.json({ generation: toPublicGeneration(view) }, 200)
  })

  app.openapi(resultRoute, async (c) => {
    const { id } = c.req.valid('param')
    const { row, resultAsset } = await getOwnedRowWithResult(deps.db, currentUser(c).id, id)
    if (row.status !== 'succeeded' || !row.result) {
      throw new AppError('GENERATION_NOT_READY', 'The generation has no result (yet)')
    }
    if (row.result.type === 'seo') {
      const { title, description, features, keywords } = row.result
      c.header('Content-Disposition', attachmentHeader(seoFileName(row.id)))
      return c.json({ title, description, features, keywords }, 200)
    }
    // A result whose file is gone (deleted with its account's storage, say) is not there.
    if (!resultAsset) throw new AppError('NOT_FOUND', 'The result file is gone')
    const stream = await deps.generations.storage
      .getStream(resultAsset.storageKey)
      .catch((error: unknown) => {
        if (error instanceof StorageNotFoundError) throw new AppError('NOT_FOUND', 'The result file is gone')
        throw error
      })
    c.header('Content-Type', resultAsset.mime)
    c.header('Content-Length', String(resultAsset.bytes))
    c.header('Content-Disposition', attachmentHeader(resultAsset.fileName))
    return c.body(Readable.toWeb(stream) as ReadableStream<Uint8Array>, 200)
  })

  app.openapi(usageRoute, async (c) => c.json(await getUsage(deps.db, currentUser(c).id, deps.now()), 200))

  app.openapi(listBatchesRoute, async (c) => {
    const { batches } = await listBatches(deps.catalogue, currentUser(c).id)
    return c.json({ items: batches.map(toPublicBatchSummary) }, 200)
  })

  app.openapi(getBatchRoute, async (c) => {
    const view = await getBatchView(deps.catalogue, currentUser(c).id, c.req.valid('param').id)
    return c.json(toPublicBatch(view), 200)
  })

  app.openapi(upsertConnectionRoute, async (c) => {
    const userId = currentUser(c).id
    const marketplace = marketplaceOf(c.req.valid('param').marketplace)
    const body: unknown = c.req.valid('json')
    // The union let either shape through; each marketplace takes only its own.
    if (marketplace === 'trendyol') {
      const credentials = publicTrendyolCredentialsSchema.safeParse(body)
      if (!credentials.success) throw validationError(credentials.error, body)
      await connectTrendyol(deps.connections, userId, credentials.data, deps.now())
    } else {
      const credentials = publicHepsiburadaCredentialsSchema.safeParse(body)
      if (!credentials.success) throw validationError(credentials.error, body)
      await connectHepsiburada(deps.connections, userId, credentials.data, deps.now())
    }
    return c.json(await connectionOf(deps.connections, userId, marketplace), 200)
  })

  app.openapi(getConnectionRoute, async (c) => {
    const marketplace = marketplaceOf(c.req.valid('param').marketplace)
    return c.json(await connectionOf(deps.connections, currentUser(c).id, marketplace), 200)
  })

  app.openapi(deleteConnectionRoute, async (c) => {
    const userId = currentUser(c).id
    const marketplace = marketplaceOf(c.req.valid('param').marketplace)
    await disconnect(deps.connections, userId, marketplace)
    return c.json(await connectionOf(deps.connections, userId, marketplace), 200)
  })

  return app
}

const quickstartPath = projectFile('docs/api-quickstart.md')

/** The Quickstart (docs/api-quickstart.md) under its first heading, for the reference page. */
function quickstartMarkdown(): string {
  if (!existsSync(quickstartPath)) return 'See docs/api-quickstart.md in the repository.'
  return readFileSync(quickstartPath, 'utf8').replace(/^# .*\n/, '')
}

/**
 * The OpenAPI 3.1 document of `routes` (publicApiRoutes), with paths under /v1 and a relative
 * server, so it describes whichever host serves it. Built once per process.
 */
export function openApiDocument(routes: OpenAPIHono<AppEnv>): () => object {
  let document: object | undefined
  return () => {
    if (document) return document
    const generated = routes.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Vitrin API',
        version: '1.0.0',
        description: [
          'The public API of Vitrin (Pro plan): upload a product photo, start image, fashion, video and SEO generations, follow them and download the results, with the same quotas and error codes as the web app.',
          'Version 1 only ever changes by addition (new fields, endpoints and values); anything else would be a /v2.',
          quickstartMarkdown(),
        ].join('\n\n'),
      },
      servers: [{ url: '/', description: 'This Vitrin server' }],
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'Assets', description: 'Product photos to generate from.' },
        { name: 'Generations', description: 'Images, fashion images, videos and SEO copy.' },
        { name: 'Catalogue', description: 'Batches started from product lists (read-only).' },
        { name: 'Account', description: 'Usage and quotas.' },
        {
          name: 'Connections',
          description: "The account's connections to the marketplaces' seller APIs (Trendyol, Hepsiburada).",
        },
        {
          name: 'Webhooks',
          description:
            'Events Vitrin sends to your endpoints (Settings → API → Webhooks), each a signed POST.',
        },
      ],
    })
    document = {
      ...generated,
      paths: Object.fromEntries(
        Object.entries(generated.paths ?? {}).map(([path, item]) => [`/v1${path}`, item]),
      ),
    }
    return document
  }
}
