import type { SecretBox } from '#server/crypto/secret-box.ts'
import type { Db } from '#server/db/client.ts'
import type { Logger } from '#server/logger.ts'
import { type PublicRequestDeps, publicRequest } from '#server/net/public-request.ts'
import { hasApiAccess } from '#server/plans/live-plan.ts'
import {
  type WebhookDeliveryError,
  webhookDeliveryErrors,
  webhookHeaders,
} from '#shared/contracts/webhooks.ts'
import { AppError } from '#shared/errors.ts'
import { type ClaimedDelivery, claimDeliveries, markAttemptFailed, markDelivered } from './delivery-queue.ts'
import { signWebhookBody } from './webhooks.service.ts'

// One delivery attempt: a signed POST through the public-address guard, its outcome recorded
// (delivered, due again with backoff, or failed once the retry window is over).

export type DeliveryDeps = {
  db: Db
  /** Opens endpoint secrets (webhooks.service.ts seals them). */
  secretBox: SecretBox
  /** The public-address guard's settings (FETCH_ALLOW_PRIVATE_HOSTS in tests). */
  fetch: PublicRequestDeps
  /** The app's clock: when attempts are due and when the retry window ends. */
  now: () => Date
  log: Logger
  userAgent: string
  /** One attempt's deadline: connection, request and the status line. */
  timeoutMs: number
  /** The first retry's delay, doubling per attempt up to maxMs; each is jittered to 50–100 %. */
  retry: { baseMs: number; maxMs: number }
  /** 0 ≤ x < 1; Math.random by default (tests fix it). */
  random?: () => number
}

/** Bytes of a receiver's answer read at most; the rest is never read (only the status counts). */
export const responseBytesRead = 4096

/**
 * The wait before attempt `attempts + 1`: base × 2^(attempts − 1), capped, then "equal jitter"
 * (between half and all of it) so that receivers coming back after an outage are not hit by
 * every delivery in the same second.
 */
export function retryDelayMs(attempts: number, retry: DeliveryDeps['retry'], random: () => number): number {
  const exponential = Math.min(retry.maxMs, retry.baseMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(exponential * (0.5 + random() / 2))
}

/** How an attempt ended; `retry` with when the next one is due. `lost`: another claim had it. */
export type AttemptOutcome = { kind: 'delivered' | 'failed' | 'lost' } | { kind: 'retry'; retryAt: Date }

type Sent = { ok: true; status: number } | { ok: false; status: number | null; error: WebhookDeliveryError }

async function send(deps: DeliveryDeps, claimed: ClaimedDelivery, isAllowed: boolean): Promise<Sent> {
  if (!isAllowed) return { ok: false, status: null, error: 'API_PLAN_REQUIRED' }
  const { delivery, endpoint } = claimed
  const body = JSON.stringify(delivery.payload)
  // Signed with the wall clock, not the app's: the receiver checks `t` against its own clock.
  const timestamp = Math.floor(Date.now() / 1000)
  const secret = deps.secretBox.open(endpoint.encryptedSecret)
  try {
    const response = await publicRequest(deps.fetch, {
      method: 'POST',
      url: endpoint.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': deps.userAgent,
        [webhookHeaders.signature]: signWebhookBody(secret, timestamp, body),
        [webhookHeaders.eventId]: delivery.eventId,
        [webhookHeaders.eventType]: delivery.eventType,
      },
      body,
      timeoutMs: deps.timeoutMs,
      maxBytes: responseBytesRead,
      overCap: 'truncate',
    })
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status }
    // A POST never follows a redirect (public-request.ts): the receiver must give its final URL.
    const isRedirect = response.status >= 300 && response.status < 400
    return { ok: false, status: response.status, error: isRedirect ? 'REDIRECT' : 'HTTP_STATUS' }
  } catch (error) {
    if (error instanceof AppError && (webhookDeliveryErrors as readonly string[]).includes(error.code)) {
      return { ok: false, status: null, error: error.code as WebhookDeliveryError }
    }
    // URL_TOO_LARGE cannot happen (truncated); anything else is ours, logged with its cause.
    deps.log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery attempt failed')
    return { ok: false, status: null, error: 'INTERNAL' }
  }
}

/** Sends one claimed delivery and records the outcome. Never throws for the receiver's faults. */
export async function attemptDelivery(
  deps: DeliveryDeps,
  claimed: ClaimedDelivery,
  workerId: string,
  isAllowed: boolean,
): Promise<AttemptOutcome> {
  const { delivery } = claimed
  const sent = await send(deps, claimed, isAllowed)
  const now = deps.now()
  const held = { id: delivery.id, workerId }
  if (sent.ok) {
    const isRecorded = await markDelivered(deps.db, held, { responseStatus: sent.status, now })
    return { kind: isRecorded ? 'delivered' : 'lost' }
  }
  const due = new Date(
    now.getTime() + retryDelayMs(delivery.attempts, deps.retry, deps.random ?? Math.random),
  )
  // The last try is at the end of the window, not past it.
  const retryAt = now >= delivery.giveUpAt ? null : due > delivery.giveUpAt ? delivery.giveUpAt : due
  const isRecorded = await markAttemptFailed(deps.db, held, {
    responseStatus: sent.status,
    error: sent.error,
    retryAt,
  })
  deps.log.info(
    { deliveryId: delivery.id, attempt: delivery.attempts, status: sent.status, error: sent.error, retryAt },
    retryAt ? 'webhook not delivered; will retry' : 'webhook not delivered; giving up',
  )
  if (!isRecorded) return { kind: 'lost' }
  return retryAt ? { kind: 'retry', retryAt } : { kind: 'failed' }
}

/**
 * Claims due deliveries (up to `limit`) and attempts them all at once, for a dispatcher round or
 * a test. Whether each owner still has API access is asked once per owner per round.
 */
export async function deliverDueWebhooks(
  deps: DeliveryDeps,
  options: { workerId: string; limit: number; leaseMs: number },
): Promise<{ claimed: ClaimedDelivery[]; attempts: Promise<AttemptOutcome>[] }> {
  const claimed = await claimDeliveries(deps.db, { ...options, now: deps.now() })
  const access = new Map<string, Promise<boolean>>()
  const allowedFor = (userId: string) => {
    let known = access.get(userId)
    if (!known) {
      known = hasApiAccess(deps.db, userId, deps.now())
      access.set(userId, known)
    }
    return known
  }
  const attempts = claimed.map(async (delivery) =>
    attemptDelivery(deps, delivery, options.workerId, await allowedFor(delivery.delivery.userId)),
  )
  return { claimed, attempts }
}
