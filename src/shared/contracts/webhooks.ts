import { z } from 'zod'

/**
 * Signed webhooks for the Pro plan (docs/decisions/0029-signed-webhooks-on-their-own-queue.md):
 * endpoints per account, the events they are sent, and the delivery log. The signature scheme is
 * written out in docs/examples/verify-signature.ts, the code receivers are told to use.
 */

/** The events an endpoint can subscribe to. */
export const webhookEventTypes = [
  'generation.succeeded',
  'generation.failed',
  'batch.completed',
  'publication.succeeded',
  'publication.failed',
] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

/**
 * The event "Send test event" sends: not subscribable, sent to the one endpoint asked for, through
 * the same queue, signing and retries as real events.
 */
export const webhookTestEventType = 'webhook.test'
export type AnyWebhookEventType = WebhookEventType | typeof webhookTestEventType

/** Every endpoint secret starts with this; the whole string (prefix included) is the HMAC key. */
export const webhookSecretPrefix = 'whsec_'
/** Endpoints one account may have, enabled or not. */
export const maxWebhookEndpoints = 10
/** A target URL's length limit, in characters. */
export const webhookUrlMaxLength = 2048
/** One delivery attempt's deadline: the receiver must answer within it. */
export const webhookAttemptTimeoutSeconds = 10
/** How long an event is retried for, from when it happened: then its delivery is `failed`. */
export const webhookRetryWindowHours = 24
/** Deliveries listed per endpoint in the log, newest first. */
export const webhookDeliveriesShown = 50

/** Headers every delivery carries. */
export const webhookHeaders = {
  signature: 'Vitrin-Signature',
  eventId: 'Vitrin-Event-Id',
  eventType: 'Vitrin-Event-Type',
} as const

const eventsSchema = z
  .array(z.enum(webhookEventTypes))
  .min(1)
  .max(webhookEventTypes.length)
  .refine((events) => new Set(events).size === events.length, { message: 'Duplicate event' })

/** POST /api/webhooks. The URL is checked further by the server (scheme, port, address). */
export const createWebhookEndpointRequestSchema = z.object({
  url: z.string().trim().min(1).max(webhookUrlMaxLength),
  events: eventsSchema,
})
export type CreateWebhookEndpointRequest = z.input<typeof createWebhookEndpointRequestSchema>

/** PATCH /api/webhooks/:id: the events, and/or enabled or disabled. */
export const updateWebhookEndpointRequestSchema = z
  .object({ events: eventsSchema.optional(), isEnabled: z.boolean().optional() })
  .refine((body) => body.events !== undefined || body.isEnabled !== undefined, {
    message: 'Nothing to change',
  })
export type UpdateWebhookEndpointRequest = z.input<typeof updateWebhookEndpointRequestSchema>

/** One endpoint as listed: never its secret (GET …/:id/secret reveals it to the owner). */
export type WebhookEndpointView = {
  id: string
  url: string
  events: WebhookEventType[]
  isEnabled: boolean
  createdAt: string
  disabledAt: string | null
}

/** GET /api/webhooks */
export type WebhookEndpointsResponse = {
  /** Whether the account's plan includes API access (`apiAccess` in shared/plans.ts). */
  hasApiAccess: boolean
  maxEndpoints: number
  endpoints: WebhookEndpointView[]
}

/** POST /api/webhooks (201): the endpoint and its signing secret. */
export type CreateWebhookEndpointResponse = { endpoint: WebhookEndpointView; secret: string }
/** PATCH /api/webhooks/:id */
export type WebhookEndpointResponse = { endpoint: WebhookEndpointView }
/** GET /api/webhooks/:id/secret: the owner may see the secret again (it is stored encrypted). */
export type WebhookSecretResponse = { secret: string }

export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number]

/**
 * Why the latest attempt did not succeed, as a code the web app translates
 * (`webhooks.deliveryErrors.<code>`): the receiver's answer (HTTP_STATUS, REDIRECT with the status
 * beside it), the public-address guard's refusals and failures (URL_*), or ours (API_PLAN_REQUIRED:
 * the account left Pro; ENDPOINT_DISABLED: the endpoint was disabled before it was sent).
 */
export const webhookDeliveryErrors = [
  'HTTP_STATUS',
  'REDIRECT',
  'URL_INVALID',
  'URL_NOT_PUBLIC',
  'URL_UNREACHABLE',
  'URL_TIMEOUT',
  'API_PLAN_REQUIRED',
  'ENDPOINT_DISABLED',
  'INTERNAL',
] as const
export type WebhookDeliveryError = (typeof webhookDeliveryErrors)[number]

/** One delivery in the log. The latest attempt's outcome is kept, not every attempt's. */
export type WebhookDeliveryView = {
  id: string
  eventId: string
  eventType: AnyWebhookEventType
  status: WebhookDeliveryStatus
  attempts: number
  createdAt: string
  lastAttemptAt: string | null
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null
  /** The receiver's HTTP status on the latest attempt, null when it did not answer. */
  responseStatus: number | null
  lastError: WebhookDeliveryError | null
  deliveredAt: string | null
}

/** GET /api/webhooks/:id/deliveries: the newest webhookDeliveriesShown. */
export type WebhookDeliveriesResponse = { deliveries: WebhookDeliveryView[] }
/** POST …/deliveries/:deliveryId/resend and POST …/:id/test (202): the new delivery. */
export type WebhookDeliveryResponse = { delivery: WebhookDeliveryView }

// --- What a receiver gets -------------------------------------------------------------------------

/**
 * A generation as an event carries it: enough to act on, with the full view (result files and
 * all) one `GET /v1/generations/{id}` away. ISO timestamps.
 */
export type WebhookGeneration = {
  id: string
  status: 'succeeded' | 'failed'
  tool: 'product' | 'fashion'
  mode: 'image' | 'video' | 'seo'
  /** Why it failed (an error code of the API), null when it succeeded. */
  errorCode: string | null
  createdAt: string
  finishedAt: string | null
}

/** A catalogue batch whose every output has settled; the counts are its products' states. */
export type WebhookBatch = {
  id: string
  status: 'finished'
  fileName: string
  createdAt: string
  startedAt: string | null
  finishedAt: string
  counts: { done: number; failed: number; canceled: number }
}

/**
 * One product published to a marketplace, once the marketplace has decided: `live` (succeeded), or
 * `rejected` by its import or review, or `failed` (the request itself could not be made: keys
 * refused, the marketplace down for too long). ISO timestamps.
 */
export type WebhookPublication = {
  /** The publication (one request of products to one marketplace) the product went out in. */
  id: string
  marketplace: 'trendyol' | 'hepsiburada'
  barcode: string
  status: 'live' | 'rejected' | 'failed'
  /** The marketplace's reasons, in its own words (Turkish), for a rejection or failure; empty when live. */
  reasons: string[]
  /** Why the whole publication failed (an error code of the API), null unless `failed`. */
  errorCode: string | null
  /** The product's page on the marketplace, when live and the marketplace gives one. */
  productUrl: string | null
  /** The generation its content came from, when it was published from a result. */
  generationId: string | null
  /** The catalogue row it came from, when it was published from a catalogue batch. */
  catalogueRowId: string | null
  decidedAt: string
}

/** The JSON body of every delivery. `created`: when the event happened (ISO). */
export type WebhookEvent =
  | {
      id: string
      type: 'generation.succeeded' | 'generation.failed'
      created: string
      data: { generation: WebhookGeneration }
    }
  | { id: string; type: 'batch.completed'; created: string; data: { batch: WebhookBatch } }
  | {
      id: string
      type: 'publication.succeeded' | 'publication.failed'
      created: string
      data: { publication: WebhookPublication }
    }
  | { id: string; type: typeof webhookTestEventType; created: string; data: { endpointId: string } }
