import { z } from 'zod'
import { generationModes, generationTools } from './generations.ts'
import { type AnyWebhookEventType, type WebhookEvent, webhookTestEventType } from './webhooks.ts'

// What a webhook receiver gets (contracts/webhooks.ts WebhookEvent), as zod schemas: the public
// API document's `webhooks` section (features/public-api, decision 31). A file of its own so that
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
