import { setTimeout as delay } from 'node:timers/promises'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type AutoTopupChargeRow, autoTopupCharges, billingCustomers } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/email/outbox.ts'
import { grantCredits, type QuotaHold } from '#server/features/quota/quota.service.ts'
import { requestContext } from '#server/http/request-context.ts'
import { AppError } from '#shared/errors.ts'
import { isTopUpPackId, type TopUpPackId, topUpPackFor } from '#shared/plans.ts'
import { deliverBillingEmails, enqueueBillingEmail } from './billing-emails.ts'
import type { BillingProvider, OffSessionCharge } from './billing-provider.ts'

export type AutoTopUpDeps = {
  db: Db
  billing: BillingProvider
  /** Delivers the outcome's email after the commit (it is in the outbox either way). */
  mailer?: Mailer | undefined
  /** For the links in emails. */
  publicUrl: string
  now: () => Date
}

/** The error a generation is refused with when the off-session charge for its shortage failed. */
export function autoTopUpFailed(): AppError {
  return new AppError('AUTO_TOPUP_FAILED', 'Auto top-up could not charge the saved card')
}

/** The error a generation is refused with when auto top-up has bought its monthly cap of packs. */
export function autoTopUpCapReached(): AppError {
  return new AppError('AUTO_TOPUP_CAP_REACHED', 'Auto top-up reached its monthly cap')
}

/** How long a request waits for another request's charge of the same shortage to settle. */
const waitLimitMs = 45_000
/**
 * A charge still pending this long after it was claimed belongs to a request that died (a crash
 * or a restart between the claim and its outcome): the next request claims it again and asks the
 * provider with the same idempotency key, which answers with the payment made, if one was.
 */
export const staleClaimMs = 2 * 60_000
const pollMs = 100

// Charges under way in this process, by shortage key: requests that hit the same shortage here
// wait on the promise instead of polling the row (other processes poll it).
const inFlight = new Map<string, Promise<AutoTopupChargeRow['status']>>()

function packOf(row: AutoTopupChargeRow): TopUpPackId {
  if (!isTopUpPackId(row.packId)) throw new Error(`auto top-up charge with unknown pack ${row.packId}`)
  return row.packId
}

function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7)
}

type Claim =
  | { kind: 'not-applicable' }
  /** Quota or credits are there now (another request's top-up landed): accept again. */
  | { kind: 'retry' }
  | { kind: 'cap-reached' }
  | { kind: 'existing'; row: AutoTopupChargeRow }
  | { kind: 'claimed'; row: AutoTopupChargeRow; chargedThisMonth: number; cap: number }

/**
 * Decides, one request of the user at a time (the billing customer row is locked), whether this
 * request charges: the shortage is still there (no credits, plan quota used), the shortage key
 * (user, resource, period and the number of credit grants of that resource so far, so the key
 * changes once a pack lands) has no charge yet, and the calendar month's charges are under the
 * user's cap. Short, and never around a provider call (on the embedded database a transaction
 * holds the whole database).
 */
async function claimShortage(db: Db, hold: QuotaHold, now: Date): Promise<Claim> {
  return db.transaction(async (tx) => {
    const [customer] = await tx
      .select()
      .from(billingCustomers)
      .where(eq(billingCustomers.userId, hold.userId))
      .for('update')
    if (!customer) return { kind: 'not-applicable' }
    const month = monthOf(now)
    const usedColumn = sql.raw(hold.resource === 'images' ? 'images_used' : 'videos_used')
    const creditColumn = sql.raw(hold.resource)
    const result = (await tx.execute(sql`select
        (select count(*)::int from credit_grants
          where user_id = ${hold.userId} and resource = ${hold.resource}) as grants,
        coalesce((select ${creditColumn} from credit_balances where user_id = ${hold.userId}), 0)::int as balance,
        coalesce((select ${usedColumn} from usage_monthly
          where user_id = ${hold.userId} and period = ${hold.period}), 0)::int as used,
        (select count(*)::int from auto_topup_charges
          where user_id = ${hold.userId} and month = ${month} and status in ('pending', 'succeeded')) as charged
    `)) as unknown as { rows: { grants: number; balance: number; used: number; charged: number }[] }
    const state = result.rows[0]
    if (!state) throw new Error('shortage state read returned no row')
    if (Number(state.balance) > 0 || Number(state.used) < hold.quota) return { kind: 'retry' }
    const shortageKey = `topup:${hold.userId}:${hold.resource}:${hold.period}:${Number(state.grants)}`
    const [existing] = await tx
      .select()
      .from(autoTopupCharges)
      .where(eq(autoTopupCharges.shortageKey, shortageKey))
    const charged = Number(state.charged)
    if (existing) {
      const isStale =
        existing.status === 'pending' && now.getTime() - existing.createdAt.getTime() >= staleClaimMs
      if (!isStale) return { kind: 'existing', row: existing }
      // created_at is the time of the latest claim: renewing it is what takes the claim over.
      const [reclaimed] = await tx
        .update(autoTopupCharges)
        .set({ createdAt: now })
        .where(and(eq(autoTopupCharges.id, existing.id), eq(autoTopupCharges.status, 'pending')))
        .returning()
      if (!reclaimed) throw new Error('auto top-up charge changed under its lock')
      // It is counted in `charged` already.
      return {
        kind: 'claimed',
        row: reclaimed,
        chargedThisMonth: charged - 1,
        cap: customer.autoTopupMonthlyCap,
      }
    }
    if (charged >= customer.autoTopupMonthlyCap) return { kind: 'cap-reached' }
    const [row] = await tx
      .insert(autoTopupCharges)
      .values({
        userId: hold.userId,
        packId: topUpPackFor(hold.resource).id,
        shortageKey,
        month,
        status: 'pending',
      })
      .onConflictDoNothing()
      .returning()
    if (!row) {
      const [other] = await tx
        .select()
        .from(autoTopupCharges)
        .where(eq(autoTopupCharges.shortageKey, shortageKey))
      if (!other) throw new Error('auto top-up charge vanished')
      return { kind: 'existing', row: other }
    }
    return { kind: 'claimed', row, chargedThisMonth: charged, cap: customer.autoTopupMonthlyCap }
  })
}

const failureCodes = {
  declined: 'PAYMENT_DECLINED',
  authentication_required: 'PAYMENT_AUTHENTICATION_REQUIRED',
  no_payment_method: 'PAYMENT_METHOD_MISSING',
  unavailable: 'BILLING_PAYMENTS_UNAVAILABLE',
} as const

/**
 * Records the charge's outcome: on success the pack is credited (once per payment: the
 * payment's own webhook crediting it again is a no-op) and the charge marked succeeded; on
 * failure it is marked failed with a code. The email goes into the outbox in the same
 * transaction, only from the call that settled the row.
 */
async function settle(
  deps: AutoTopUpDeps,
  claim: Extract<Claim, { kind: 'claimed' }>,
  outcome: OffSessionCharge,
): Promise<string | null> {
  const { row } = claim
  const locale = requestContext.getStore()?.locale ?? null
  const packId = packOf(row)
  return deps.db.transaction(async (tx) => {
    if (outcome.status === 'succeeded') {
      await grantCredits(tx, {
        userId: row.userId,
        packId,
        paymentRef: outcome.paymentRef,
        origin: 'auto_topup',
      })
    }
    const [settled] = await tx
      .update(autoTopupCharges)
      .set(
        outcome.status === 'succeeded'
          ? { status: 'succeeded', paymentRef: outcome.paymentRef, settledAt: deps.now() }
          : {
              status: 'failed',
              paymentRef: outcome.paymentRef,
              errorCode: failureCodes[outcome.reason],
              settledAt: deps.now(),
            },
      )
      .where(and(eq(autoTopupCharges.id, row.id), eq(autoTopupCharges.status, 'pending')))
      .returning({ id: autoTopupCharges.id })
    if (!settled) return null
    return enqueueBillingEmail(tx, {
      userId: row.userId,
      locale,
      publicUrl: deps.publicUrl,
      facts:
        outcome.status === 'succeeded'
          ? { kind: 'auto_topup_done', packId, used: claim.chargedThisMonth + 1, cap: claim.cap }
          : { kind: 'auto_topup_failed', packId, reason: outcome.reason },
    })
  })
}

/** Charges the claimed shortage's pack off-session and records the outcome. */
async function charge(
  deps: AutoTopUpDeps,
  claim: Extract<Claim, { kind: 'claimed' }>,
): Promise<AutoTopupChargeRow['status']> {
  const { row } = claim
  let outcome: OffSessionCharge
  try {
    outcome = await deps.billing.chargeOffSession({
      userId: row.userId,
      packId: packOf(row),
      // The shortage key: asked again (a retry after an outage), the provider answers with the
      // same payment instead of charging twice.
      idempotencyKey: row.shortageKey,
    })
  } catch (error) {
    // The provider did not answer: the claim is dropped so that the next request asks again
    // with the same key (the provider's idempotency makes that the same charge, if one was made).
    await deps.db
      .delete(autoTopupCharges)
      .where(and(eq(autoTopupCharges.id, row.id), eq(autoTopupCharges.status, 'pending')))
    throw error
  }
  const emailId = await settle(deps, claim, outcome)
  await deliverBillingEmails(deps.mailer, [emailId], requestContext.getStore()?.log)
  return outcome.status === 'succeeded' ? 'succeeded' : 'failed'
}

/** Waits for another request's charge of this shortage: in this process on its promise, else on the row. */
async function outcomeOf(
  deps: AutoTopUpDeps,
  row: AutoTopupChargeRow,
): Promise<AutoTopupChargeRow['status']> {
  if (row.status !== 'pending') return row.status
  const local = inFlight.get(row.shortageKey)
  if (local) return local.catch(() => 'pending' as const)
  const deadline = Date.now() + waitLimitMs
  while (Date.now() < deadline) {
    await delay(pollMs)
    const [now] = await deps.db
      .select({ status: autoTopupCharges.status })
      .from(autoTopupCharges)
      .where(eq(autoTopupCharges.shortageKey, row.shortageKey))
    // Gone: the charging request met a provider outage and dropped its claim.
    if (!now) return 'pending'
    if (now.status !== 'pending') return now.status
  }
  return 'pending'
}

/**
 * Called when accepting a generation was refused because plan quota and credits are used up.
 * With auto top-up on and a saved billing customer, makes sure one pack is charged for this
 * shortage, by exactly one request however many hit it at once, and credited. True: accept the
 * generation again (credits are there now). False: auto top-up does not apply (off, manual
 * billing, no customer; the caller keeps its quota refusal). Throws AUTO_TOPUP_CAP_REACHED when
 * the month's cap of packs is bought, and AUTO_TOPUP_FAILED when the shortage's charge failed
 * (now or before: it is not tried again).
 */
export async function topUpForShortage(
  deps: AutoTopUpDeps,
  input: { hold: QuotaHold; isEnabled: boolean },
): Promise<boolean> {
  if (!input.isEnabled || !deps.billing.isLive) return false
  const claim = await claimShortage(deps.db, input.hold, deps.now())
  switch (claim.kind) {
    case 'not-applicable':
      return false
    case 'cap-reached':
      throw autoTopUpCapReached()
    case 'retry':
      return true
    case 'existing': {
      const status = await outcomeOf(deps, claim.row)
      if (status === 'failed') throw autoTopUpFailed()
      // Succeeded: its credits are there. Still pending (the wait ran out, or the charger met an
      // outage): the accept is tried again and refused as before if nothing landed.
      return status === 'succeeded'
    }
    case 'claimed': {
      const running = charge(deps, claim)
      inFlight.set(claim.row.shortageKey, running)
      try {
        const status = await running
        if (status === 'failed') throw autoTopUpFailed()
        return true
      } finally {
        inFlight.delete(claim.row.shortageKey)
      }
    }
  }
}
