import { createHmac, timingSafeEqual } from 'node:crypto'

// How to check that a webhook came from Vitrin (copy this file into your receiver; Node 18+).
//
// Every delivery is a POST with a JSON body and these headers:
//   Vitrin-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with your endpoint's secret>
//   Vitrin-Event-Id:  the event's id (the same on a retry or a resend: use it to drop duplicates)
//   Vitrin-Event-Type: generation.succeeded | generation.failed | batch.completed |
//                     publication.succeeded | publication.failed | webhook.test
// The secret is the whole `whsec_…` string from Settings → API → Webhooks.
//
// Check the raw body exactly as received, before parsing it: parsing and serializing again may
// change spacing or key order, and then the signature no longer matches. Refuse a timestamp more
// than five minutes from your clock, so that a recorded delivery cannot be replayed later.

/** How far the signature's timestamp may be from the receiver's clock, in seconds. */
export const signatureToleranceSeconds = 300

export type VerifyOptions = {
  /** Override the tolerance (seconds). */
  toleranceSeconds?: number
  /** The receiver's clock, in unix seconds (tests only; defaults to now). */
  nowSeconds?: number
}

/**
 * True when `header` (the Vitrin-Signature value) signs `rawBody` with `secret` and its timestamp
 * is within the tolerance. Several `v1=` entries may appear; any one matching is enough.
 */
export function verifyVitrinSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): boolean {
  if (!header) return false
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value)
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value)
  }
  if (timestamp === null || signatures.length === 0) return false
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? signatureToleranceSeconds)) return false
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody
  const expected = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest()
  return signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected))
}
