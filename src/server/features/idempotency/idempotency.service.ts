import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type IdempotencyKeyRow, idempotencyKeys } from '#server/db/schema/index.ts'
import { idempotencyKeyHours } from '#shared/api-limits.ts'

export type IdempotencyDeps = { db: Db; now: () => Date }

/** How long a key is remembered after its first request. */
export const idempotencyKeyTtlMs = idempotencyKeyHours * 3_600_000

/**
 * A key still `running` this long after its request began belongs to a process that stopped
 * (a request's body must arrive within Node's 5-minute request timeout, and no /v1 answer takes
 * minutes): the next request with the key takes it over instead of waiting for a day.
 */
export const abandonedAfterMs = 10 * 60_000

/** A key this request holds: the row, and when it was taken (a takeover changes it). */
export type IdempotencyClaim = { id: string; createdAt: Date }

/**
 * What "the same request" means: method and path (with query), then the body's length and
 * SHA-256 once the body has been read, or "pending" while the first request still reads it.
 */
export type RequestFingerprint = { target: string; body: { bytes: number; sha256: string } | null }

export function formatFingerprint(fingerprint: RequestFingerprint): string {
  const { target, body } = fingerprint
  return body ? `${target} ${body.bytes} ${body.sha256}` : `${target} pending`
}

export function parseFingerprint(text: string): RequestFingerprint {
  const parts = text.split(' ')
  if (parts.at(-1) === 'pending') return { target: parts.slice(0, -1).join(' '), body: null }
  return {
    target: parts.slice(0, -2).join(' '),
    body: { bytes: Number(parts.at(-2)), sha256: parts.at(-1) ?? '' },
  }
}

/**
 * Takes the key for this request in one statement: a new row marked `running`, or a row whose
 * key expired (24 hours) or was abandoned, started again. Null when a live row holds the key:
 * then exactly one of any number of concurrent requests with one key gets the claim.
 */
export async function claimIdempotencyKey(
  deps: IdempotencyDeps,
  userId: string,
  key: string,
  target: string,
): Promise<IdempotencyClaim | null> {
  const at = deps.now()
  const requestHash = formatFingerprint({ target, body: null })
  const expiredBefore = new Date(at.getTime() - idempotencyKeyTtlMs).toISOString()
  const abandonedBefore = new Date(at.getTime() - abandonedAfterMs).toISOString()
  const [claim] = await deps.db
    .insert(idempotencyKeys)
    .values({ userId, key, requestHash, status: 'running', createdAt: at })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { requestHash, status: 'running', responseStatus: null, responseBody: null, createdAt: at },
      setWhere: sql`${idempotencyKeys.createdAt} <= ${expiredBefore}::timestamptz or (${idempotencyKeys.status} = 'running' and ${idempotencyKeys.createdAt} <= ${abandonedBefore}::timestamptz)`,
    })
    .returning({ id: idempotencyKeys.id, createdAt: idempotencyKeys.createdAt })
  return claim ?? null
}

/** The key's row while it is live (neither expired nor abandoned), else null. */
export async function findLiveIdempotencyKey(
  deps: IdempotencyDeps,
  userId: string,
  key: string,
): Promise<IdempotencyKeyRow | null> {
  const [row] = await deps.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
  if (!row) return null
  const age = deps.now().getTime() - row.createdAt.getTime()
  if (age >= idempotencyKeyTtlMs) return null
  if (row.status === 'running' && age >= abandonedAfterMs) return null
  return row
}

/** Keeps the answer of a claimed key, with the whole request's fingerprint. */
export async function completeIdempotencyKey(
  deps: IdempotencyDeps,
  claim: IdempotencyClaim,
  fingerprint: RequestFingerprint,
  answer: { status: number; body: unknown },
): Promise<void> {
  await deps.db
    .update(idempotencyKeys)
    .set({
      status: 'done',
      requestHash: formatFingerprint(fingerprint),
      responseStatus: answer.status,
      responseBody: answer.body,
    })
    .where(ownClaim(claim))
}

/** Gives a claimed key up without an answer: the next request with it runs afresh. */
export async function releaseIdempotencyKey(deps: IdempotencyDeps, claim: IdempotencyClaim): Promise<void> {
  await deps.db.delete(idempotencyKeys).where(ownClaim(claim))
}

/** The claim's row, unless another request has taken it over meanwhile. */
function ownClaim(claim: IdempotencyClaim) {
  return and(
    eq(idempotencyKeys.id, claim.id),
    eq(idempotencyKeys.createdAt, claim.createdAt),
    eq(idempotencyKeys.status, 'running'),
  )
}

const sweepBatchSize = 1000

/** Deletes keys past their 24 hours (they are ignored already), a batch per statement. */
export async function sweepExpiredIdempotencyKeys(deps: IdempotencyDeps): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - idempotencyKeyTtlMs).toISOString()
  let total = 0
  for (;;) {
    const expired = deps.db
      .select({ id: idempotencyKeys.id })
      .from(idempotencyKeys)
      .where(sql`${idempotencyKeys.createdAt} <= ${cutoff}::timestamptz`)
      .limit(sweepBatchSize)
    const deleted = await deps.db
      .delete(idempotencyKeys)
      .where(sql`${idempotencyKeys.id} in (${expired})`)
      .returning({ id: idempotencyKeys.id })
    total += deleted.length
    if (deleted.length < sweepBatchSize) return total
  }
}
