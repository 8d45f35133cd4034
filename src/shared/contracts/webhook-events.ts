import { z } from 'zod'
import { generationModes, generationTools } from './generations.ts'
import { type AnyWebhookEventType, type WebhookEvent, webhookTestEventType } from './webhooks.ts'

// What a webhook receiver gets (contracts/webhooks.ts WebhookEvent), as zod schemas: the public
// API document's `webhooks` section (src/server/v1, decision 31). A file of its own so that
// the web app, which imports webhooks.ts, does not carry them.

const isoTimestamp = () => z.iso.datetime({ offset: true })

const webhookGenerationSchema = (status: 'succeeded' | 'failed') =>
  z.object({
    id: z.uuid(),
    status: z.literal(status),
    tool: z.enum(generationTools),
    mode: z.enum(generationModes),
    errorCode:
      status === 'succeeded'
        ? z.null()
        : z
            .string()
            .meta({ description: 'Why it failed: an error code of the API, e.g. PROVIDER_REJECTED.' }),
    createdAt: isoTimestamp(),
    finishedAt: isoTimestamp().nullable(),
  })

const eventBase = {
  id: z.uuid().meta({
    description:
      'The event’s id, also in `Vitrin-Event-Id`: the same on a retry or a resend, so drop duplicates by it.',
  }),
  created: isoTimestamp().meta({ description: 'When the event happened.' }),
}

export const generationSucceededEventSchema = z
  .object({
    ...eventBase,
    type: z.literal('generation.succeeded'),
    data: z.object({ generation: webhookGenerationSchema('succeeded') }),
  })
  .meta({
    id: 'GenerationSucceededEvent',
    description: 'A generation succeeded; its result is at `GET /v1/generations/{id}/result`.',
  })

export const generationFailedEventSchema = z
  .object({
    ...eventBase,
    type: z.literal('generation.failed'),
    data: z.object({ generation: webhookGenerationSchema('failed') }),
  })
  .meta({
    id: 'GenerationFailedEvent',
    description:
      'A generation failed or was canceled (`errorCode` GENERATION_CANCELED); its quota came back.',
  })

export const batchCompletedEventSchema = z
  .object({
    ...eventBase,
    type: z.literal('batch.completed'),
    data: z.object({
      batch: z.object({
        id: z.uuid(),
        status: z.literal('finished'),
        fileName: z.string(),
        createdAt: isoTimestamp(),
        startedAt: isoTimestamp().nullable(),
        finishedAt: isoTimestamp(),
        counts: z
          .object({ done: z.number().int(), failed: z.number().int(), canceled: z.number().int() })
          .meta({ description: 'Its products by final state.' }),
      }),
    }),
  })
  .meta({
    id: 'BatchCompletedEvent',
    description: 'Every output of a catalogue batch has settled; `GET /v1/batches/{id}` has the rows.',
  })

const webhookPublicationSchema = (outcome: 'succeeded' | 'failed') =>
  z.object({
    id: z.uuid().meta({ description: 'The publication (one request of products to one marketplace).' }),
    marketplace: z.enum(['trendyol', 'hepsiburada']),
    barcode: z.string(),
    status:
      outcome === 'succeeded'
        ? z.literal('live')
        : z.enum(['rejected', 'failed']).meta({
            description:
              '`rejected`: refused by the marketplace’s import or review; `failed`: the request could not be made (see `errorCode`).',
          }),
    reasons: z.array(z.string()).meta({
      description:
        'The marketplace’s reasons in its own words (usually Turkish), for a rejection or failure; empty when live.',
    }),
    errorCode:
      outcome === 'succeeded'
        ? z.null()
        : z.string().nullable().meta({
            description:
              'Why the whole publication failed, an error code of the API (e.g. MARKETPLACE_KEYS_REFUSED); null for a rejection.',
          }),
    productUrl:
      outcome === 'succeeded'
        ? z
            .string()
            .nullable()
            .meta({ description: 'The product’s page on the marketplace, when it gives one.' })
        : z.null(),
    generationId: z.uuid().nullable().meta({ description: 'The generation its content came from, if any.' }),
    catalogueRowId: z.uuid().nullable().meta({ description: 'The catalogue row it came from, if any.' }),
    decidedAt: isoTimestamp(),
  })

export const publicationSucceededEventSchema = z
  .object({
    ...eventBase,
    type: z.literal('publication.succeeded'),
    data: z.object({ publication: webhookPublicationSchema('succeeded') }),
  })
  .meta({
    id: 'PublicationSucceededEvent',
    description: 'A product published to a marketplace went live there.',
  })

export const publicationFailedEventSchema = z
  .object({
    ...eventBase,
    type: z.literal('publication.failed'),
    data: z.object({ publication: webhookPublicationSchema('failed') }),
  })
  .meta({
    id: 'PublicationFailedEvent',
    description:
      'A product published to a marketplace was rejected (with the marketplace’s reasons) or could not be sent.',
  })

export const webhookTestEventSchema = z
  .object({
    ...eventBase,
    type: z.literal(webhookTestEventType),
    data: z.object({ endpointId: z.uuid().meta({ description: 'The endpoint the test was sent to.' }) }),
  })
  .meta({
    id: 'WebhookTestEvent',
    description: 'Sent by “Send test event” in Settings → API to one endpoint; nothing happened.',
  })

/** Each event type with its schema, as the document's `webhooks` section lists them. */
export const webhookEventSchemas = {
  'generation.succeeded': generationSucceededEventSchema,
  'generation.failed': generationFailedEventSchema,
  'batch.completed': batchCompletedEventSchema,
  'publication.succeeded': publicationSucceededEventSchema,
  'publication.failed': publicationFailedEventSchema,
  [webhookTestEventType]: webhookTestEventSchema,
} as const satisfies Record<AnyWebhookEventType, z.ZodType>

// Every payload the schemas allow is a WebhookEvent (the type the server builds events with):
// this fails to compile when the two part.
type Extends<A, B> = [A] extends [B] ? true : false
const webhookSchemasMatch: Extends<
  z.infer<(typeof webhookEventSchemas)[AnyWebhookEventType]>,
  WebhookEvent
> = true
void webhookSchemasMatch
