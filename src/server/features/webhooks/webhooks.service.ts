import { createHmac, randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { SecretBox } from '#server/crypto/secret-box.ts'
import type { Db } from '#server/db/client.ts'
import {
  users,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookDeliveries,
  webhookEndpoints,
} from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import {
  allowedPorts,
  bareHostname,
  effectivePort,
  isAllowListed,
  nonPublicReason,
} from '#server/net/public-address.ts'
import { hasApiAccess } from '#server/plans/live-plan.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import {
  type AnyWebhookEventType,
  type CreateWebhookEndpointResponse,
  maxWebhookEndpoints,
  type UpdateWebhookEndpointRequest,
  type WebhookDeliveriesResponse,
  type WebhookDeliveryError,
  type WebhookDeliveryView,
  type WebhookEndpointsResponse,
  type WebhookEndpointView,
  type WebhookEventType,
  webhookDeliveriesShown,
  webhookSecretPrefix,
  webhookTestEventType,
} from '#shared/contracts/webhooks.ts'
import { AppError } from '#shared/errors.ts'
import { newEvent, retryWindowMs } from './webhook-events.service.ts'

// Signed webhooks (docs/decisions/0029-signed-webhooks-on-their-own-queue.md): an account's
// endpoints, its test events and resends, and the delivery log. The events other features'
// outcomes write are webhook-events.service.ts. Delivering is delivery-queue.ts (the queue's SQL) and
// deliver.ts (one attempt), run by jobs/webhook-dispatcher.ts.

export type WebhooksDeps = {
  db: Db
  now: () => Date
  /** Seals endpoint secrets under APP_SECRET (its own purpose, apart from provider keys). */
  secretBox: SecretBox
  /** Wakes webhook dispatchers when a resend or test event is queued. */
  notifier: Pick<Notifier, 'webhooksDue'>
  /**
   * Hosts a target URL may name although private: FETCH_ALLOW_PRIVATE_HOSTS (tests only), and
   * localhost, 127.0.0.1 and [::1] with WEBHOOKS_ALLOW_LOOPBACK (development only).
   */
  allowPrivateHosts: readonly string[]
  /** Counts test events and resends per account (the database limiter every server shares). */
  rateLimiter: RateLimiter
  /** WEBHOOK_SENDS_PER_MINUTE: test events and resends one account may queue per minute. */
  sendsPerMinute: number
}

/**
 * Test events and resends are signed POSTs to a URL the account chose, sent on request: without
 * a limit, one account could have the dispatchers fire them at a receiver as fast as it asks.
 */
function webhookSendRule(deps: WebhooksDeps): RateLimitRule {
  return { name: 'webhook-send', limit: deps.sendsPerMinute, windowSeconds: 60 }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

// --- Secrets and signatures ------------------------------------------------------------------

/** A new signing secret: `whsec_` and 32 random bytes, base64url (43 characters). */
export function generateWebhookSecret(): string {
  return webhookSecretPrefix + randomBytes(32).toString('base64url')
}

/**
 * The `Vitrin-Signature` header for a body sent at `timestampSeconds`: HMAC-SHA256 of
 * `<t>.<body>` keyed with the whole secret, hex. docs/examples/verify-signature.ts checks it.
 */
export function signWebhookBody(secret: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`, 'utf8').digest('hex')
  return `t=${timestampSeconds},v1=${mac}`
}

// --- Target URLs -----------------------------------------------------------------------------

/**
 * What can be known of a target URL without the network, checked when it is saved: an absolute
 * http(s) URL on port 80 or 443 without user info, whose host is not a non-public IP literal or
 * `localhost`. Host names are resolved, and every address checked, at each delivery instead
 * (net/public-request.ts), since DNS answers change. FETCH_ALLOW_PRIVATE_HOSTS lets test hosts
 * through, as it does there.
 */
export function checkWebhookUrl(raw: string, allowPrivateHosts: readonly string[]): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AppError('URL_INVALID', 'Not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('URL_INVALID', 'Only http:// and https:// URLs can receive webhooks')
  }
  if (url.username || url.password) throw new AppError('URL_INVALID', 'No user name or password in the URL')
  const isAllowed = isAllowListed(url, allowPrivateHosts)
  const host = bareHostname(url)
  // RFC 6761: localhost names always mean this machine, whatever DNS says.
  const isLocal = host === 'localhost' || host.endsWith('.localhost')
  if (!isAllowed && ((isIP(host) !== 0 && nonPublicReason(host)) || isLocal)) {
    throw new AppError('URL_NOT_PUBLIC', 'The address is not a public one')
  }
  if (!isAllowed && !allowedPorts.has(effectivePort(url))) {
    throw new AppError('URL_INVALID', 'Only the standard ports (80, 443)')
  }
  return url.href
}

// --- Endpoints -------------------------------------------------------------------------------

function presentEndpoint(row: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    isEnabled: row.disabledAt === null,
    createdAt: row.createdAt.toISOString(),
    disabledAt: row.disabledAt?.toISOString() ?? null,
  }
}

async function requireApiAccess(deps: Pick<WebhooksDeps, 'db' | 'now'>, userId: string): Promise<void> {
  if (!(await hasApiAccess(deps.db, userId, deps.now()))) {
    throw new AppError('API_PLAN_REQUIRED', 'Webhooks need a plan with API access')
  }
}

async function ownedEndpoint(db: Db, userId: string, id: string): Promise<WebhookEndpointRow> {
  const [row] = uuidPattern.test(id)
    ? await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    : []
  if (!row) throw new AppError('NOT_FOUND', 'No such webhook endpoint')
  return row
}

/**
 * The user's endpoints, oldest first. Listing needs no plan, so an account that left Pro still
 * sees its endpoints and can disable or delete them.
 */
export async function listWebhookEndpoints(
  deps: Pick<WebhooksDeps, 'db' | 'now'>,
  userId: string,
): Promise<WebhookEndpointsResponse> {
  const [rows, isAllowed] = await Promise.all([
    deps.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, userId))
      .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id),
    hasApiAccess(deps.db, userId, deps.now()),
  ])
  return { hasApiAccess: isAllowed, maxEndpoints: maxWebhookEndpoints, endpoints: rows.map(presentEndpoint) }
}

/**
 * Adds an endpoint with a new secret, returned whole (it can be revealed again later: it is
 * stored encrypted, since every delivery needs it). Needs API access; at most
 * maxWebhookEndpoints per account.
 */
export async function createWebhookEndpoint(
  deps: WebhooksDeps,
  userId: string,
  input: { url: string; events: WebhookEventType[] },
): Promise<CreateWebhookEndpointResponse> {
  await requireApiAccess(deps, userId)
  const url = checkWebhookUrl(input.url, deps.allowPrivateHosts)
  const secret = generateWebhookSecret()
  const row = await deps.db.transaction(async (tx) => {
    // The user's row is locked so that two requests at once cannot both pass the count below.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
    const [existing] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, userId))
    if ((existing?.count ?? 0) >= maxWebhookEndpoints) {
      throw new AppError('WEBHOOK_ENDPOINT_LIMIT_REACHED', `At most ${maxWebhookEndpoints} webhook endpoints`)
    }
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({
        userId,
        url,
        events: [...input.events],
        encryptedSecret: deps.secretBox.seal(secret),
        createdAt: deps.now(),
      })
      .returning()
    return inserted
  })
  if (!row) throw new Error('webhook endpoint insert returned nothing')
  return { endpoint: presentEndpoint(row), secret }
}

/** The endpoint's secret, for its owner (Settings → API "Reveal"). No plan needed. */
export async function revealWebhookSecret(
  deps: Pick<WebhooksDeps, 'db' | 'secretBox'>,
  userId: string,
  id: string,
): Promise<string> {
  const row = await ownedEndpoint(deps.db, userId, id)
  return deps.secretBox.open(row.encryptedSecret)
}

/**
 * Changes an endpoint's events and/or enables or disables it. Disabling needs no plan and fails
 * its pending deliveries at once (ENDPOINT_DISABLED), in the same transaction; enabling and
 * changing events need API access.
 */
export async function updateWebhookEndpoint(
  deps: WebhooksDeps,
  userId: string,
  id: string,
  change: UpdateWebhookEndpointRequest,
): Promise<WebhookEndpointView> {
  const current = await ownedEndpoint(deps.db, userId, id)
  if (change.events !== undefined || change.isEnabled === true) await requireApiAccess(deps, userId)
  const now = deps.now()
  const disabledAt =
    change.isEnabled === undefined
      ? current.disabledAt
      : change.isEnabled
        ? null
        : (current.disabledAt ?? now)
  const row = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ disabledAt, ...(change.events ? { events: [...change.events] } : {}) })
      .where(and(eq(webhookEndpoints.id, current.id), eq(webhookEndpoints.userId, userId)))
      .returning()
    if (updated && updated.disabledAt !== null) {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'failed', lastError: 'ENDPOINT_DISABLED', lockedBy: null, leaseUntil: null })
        .where(and(eq(webhookDeliveries.endpointId, current.id), eq(webhookDeliveries.status, 'pending')))
    }
    return updated
  })
  if (!row) throw new AppError('NOT_FOUND', 'No such webhook endpoint')
  return presentEndpoint(row)
}

/** Deletes an endpoint and its delivery log; nothing more is sent to it. No plan needed. */
export async function deleteWebhookEndpoint(
  deps: Pick<WebhooksDeps, 'db'>,
  userId: string,
  id: string,
): Promise<void> {
  const row = await ownedEndpoint(deps.db, userId, id)
  await deps.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.userId, userId)))
}

// --- Deliveries ------------------------------------------------------------------------------

export function presentDelivery(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType as AnyWebhookEventType,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    responseStatus: row.responseStatus,
    lastError: row.lastError as WebhookDeliveryError | null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  }
}

/** The endpoint's newest deliveries (webhookDeliveriesShown). No plan needed. */
export async function listWebhookDeliveries(
  deps: Pick<WebhooksDeps, 'db'>,
  userId: string,
  endpointId: string,
): Promise<WebhookDeliveriesResponse> {
  const endpoint = await ownedEndpoint(deps.db, userId, endpointId)
  const rows = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpoint.id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(webhookDeliveriesShown)
  return { deliveries: rows.map(presentDelivery) }
}

async function enabledEndpointForSending(deps: WebhooksDeps, userId: string, id: string) {
  const endpoint = await ownedEndpoint(deps.db, userId, id)
  await requireApiAccess(deps, userId)
  if (endpoint.disabledAt !== null) {
    throw new AppError('WEBHOOK_ENDPOINT_DISABLED', 'The endpoint is disabled')
  }
  return endpoint
}

async function queueDelivery(
  deps: WebhooksDeps,
  endpoint: WebhookEndpointRow,
  event: { id: string; type: AnyWebhookEventType; payload: unknown },
): Promise<WebhookDeliveryView> {
  const now = deps.now()
  const [row] = await deps.db
    .insert(webhookDeliveries)
    .values({
      endpointId: endpoint.id,
      userId: endpoint.userId,
      eventId: event.id,
      // The test event is no subscribable type, but the column is plain text.
      eventType: event.type as WebhookEventType,
      payload: event.payload,
      nextAttemptAt: now,
      giveUpAt: new Date(now.getTime() + retryWindowMs),
      createdAt: now,
    })
    .returning()
  if (!row) throw new Error('webhook delivery insert returned nothing')
  deps.notifier.webhooksDue()
  return presentDelivery(row)
}

/**
 * Sends one of the endpoint's deliveries again: a new delivery of the same event (same id and
 * payload, so a receiver that already has it can drop it), tried for another 24 hours.
 */
export async function resendWebhookDelivery(
  deps: WebhooksDeps,
  userId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await enabledEndpointForSending(deps, userId, endpointId)
  const [original] = uuidPattern.test(deliveryId)
    ? await deps.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)))
    : []
  if (!original) throw new AppError('NOT_FOUND', 'No such delivery')
  await deps.rateLimiter.consume(webhookSendRule(deps), userId)
  return queueDelivery(deps, endpoint, {
    id: original.eventId,
    type: original.eventType as AnyWebhookEventType,
    payload: original.payload,
  })
}

/** Queues a `webhook.test` event for one endpoint: the same queue, signing and retries as real events. */
export async function sendTestWebhook(
  deps: WebhooksDeps,
  userId: string,
  endpointId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await enabledEndpointForSending(deps, userId, endpointId)
  await deps.rateLimiter.consume(webhookSendRule(deps), userId)
  const event = newEvent(webhookTestEventType, { endpointId: endpoint.id }, deps.now())
  return queueDelivery(deps, endpoint, { id: event.id, type: event.type, payload: event })
}
