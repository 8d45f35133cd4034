import { setTimeout as delay } from 'node:timers/promises'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type AutoTopupChargeRow, autoTopupCharges, billingCustomers } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/email/outbox.ts'
import { grantCredits } from '#server/features/quota/credits.service.ts'
import type { QuotaHold } from '#server/features/quota/quota.service.ts'
import { requestContext } from '#server/http/request-context.ts'
import { AppError } from '#shared/errors.ts'
import { isTopUpPackId, type TopUpPackId, topUpPackFor } from '#shared/plans.ts'
import {
  type BillingRecipient,
  deliverBillingEmails,
  enqueueBillingEmail,
  readBillingRecipient,
} from './billing-emails.ts'
import type { BillingProvider, OffSessionCharge } from './billing-provider.ts'

export type AutoTopUpDeps = {
  db: Db
  billing: BillingProvider
  /** Delivers the outcome's email after the commit (it is in the outbox either way). */
  mailer?: Mailer | undefined
  /** For the links in emails. */
  publicUrl: string
  now: () => Date
  /** The pause between two looks at another process's charge (tests hold it to act meanwhile). */
  pollPause?: () => Promise<void>
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

// Top-ups under way in this process, by user, resource and quota period: the requests that meet
// the same shortage here while one is under way join it and take its answer, instead of queueing
// on the billing customer row's lock one after another to learn that it is being charged (the
// requests of other processes find its charge row and poll it).
const underWay = new Map<string, Promise<TopUpAnswer>>()

function packOf(row: AutoTopupChargeRow): TopUpPackId {
  if (!isTopUpPackId(row.packId)) throw new Error(`auto top-up charge with unknown pack ${row.packId}`)
  return row.packId
}

function monthOf(now: Date): string {
  return now.toISOString().slice(0, 7)
}

/** What a request waiting on another's charge needs of its row. */
type ChargeRef = Pick<AutoTopupChargeRow, 'id' | 'status' | 'shortageKey' | 'createdAt'>

type Claim =
  | { kind: 'not-applicable' }
  /** Quota or credits are there now (another request's top-up landed): accept again. */
  | { kind: 'retry' }
  | { kind: 'cap-reached' }
  | { kind: 'existing'; row: ChargeRef }
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
    const keyPrefix = `topup:${hold.userId}:${hold.resource}:${hold.period}:`
    // The state, and this shortage's charge if it has one, in one round trip.
    const result = (await tx.execute(sql`select state.*, charge.id as charge_id,
        charge.status as charge_status,
        (extract(epoch from charge.created_at) * 1000)::float8 as charge_created_ms
      from (select
        (select count(*)::int from credit_grants
          where user_id = ${hold.userId} and resource = ${hold.resource}) as grants,
        coalesce((select ${creditColumn} from credit_balances where user_id = ${hold.userId}), 0)::int as balance,
        coalesce((select ${usedColumn} from usage_monthly
          where user_id = ${hold.userId} and period = ${hold.period}), 0)::int as used,
        (select count(*)::int from auto_topup_charges
          where user_id = ${hold.userId} and month = ${month} and status in ('pending', 'succeeded')) as charged
      ) as state
      left join auto_topup_charges as charge on charge.shortage_key = ${keyPrefix} || state.grants::text
    `)) as unknown as {
      rows: {
        grants: number
        balance: number
        used: number
        charged: number
        charge_id: string | null
        charge_status: AutoTopupChargeRow['status'] | null
        charge_created_ms: number | null
      }[]
    }
    const state = result.rows[0]
    if (!state) throw new Error('shortage state read returned no row')
    if (Number(state.balance) > 0 || Number(state.used) < hold.quota) return { kind: 'retry' }
    const shortageKey = `${keyPrefix}${Number(state.grants)}`
    const charged = Number(state.charged)
    if (state.charge_id && state.charge_status) {
      const existing = {
        id: state.charge_id,
        status: state.charge_status,
        shortageKey,
        createdAt: new Date(Number(state.charge_created_ms)),
      }
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
  recipient: BillingRecipient,
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
      recipient,
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
  // Whom the outcome's email goes to, read while the provider charges.
  const recipientRead = readBillingRecipient(deps.db, row.userId)
  recipientRead.catch(() => undefined)
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
  const emailId = await settle(deps, claim, outcome, await recipientRead)
  // Sent after the answer, not before it: the email is in the outbox already, and a mail
  // server's round trip has no place in the accept of a generation.
  const log = requestContext.getStore()?.log
  deliverBillingEmails(deps.mailer, [emailId], log).catch((error: unknown) => {
    log?.error({ err: error, emailId }, 'auto top-up email delivery failed')
  })
  return outcome.status === 'succeeded' ? 'succeeded' : 'failed'
}

/** Waits for another process's charge of this shortage to settle, polling its row. */
async function outcomeOf(deps: AutoTopUpDeps, row: ChargeRef): Promise<AutoTopupChargeRow['status']> {
  if (row.status !== 'pending') return row.status
  const deadline = Date.now() + waitLimitMs
  const pause = deps.pollPause ?? (() => delay(pollMs))
  while (Date.now() < deadline) {
    await pause()
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
  const { hold } = input
  const key = `${hold.userId}:${hold.resource}:${hold.period}`
  let answer = underWay.get(key)
  if (!answer) {
    const started = topUpOnce(deps, hold)
    answer = started
    underWay.set(key, started)
    // Settled, it is no longer joined; its outcome, or its error, reaches this request below.
    started
      .catch(() => undefined)
      .finally(() => {
        if (underWay.get(key) === started) underWay.delete(key)
      })
  }
  // Each request gets its own error object.
  switch (await answer) {
    case 'accept':
      return true
    case 'not-applicable':
      return false
    case 'cap-reached':
      throw autoTopUpCapReached()
    case 'failed':
      throw autoTopUpFailed()
  }
}

/** What one top-up attempt tells the requests that met the shortage (each throws its own error). */
type TopUpAnswer = 'accept' | 'not-applicable' | 'cap-reached' | 'failed'

async function topUpOnce(deps: AutoTopUpDeps, hold: QuotaHold): Promise<TopUpAnswer> {
  const claim = await claimShortage(deps.db, hold, deps.now())
  switch (claim.kind) {
    case 'not-applicable':
    case 'cap-reached':
      return claim.kind
    case 'retry':
      return 'accept'
    case 'existing': {
      const status = await outcomeOf(deps, claim.row)
      // Succeeded: its credits are there. Still pending (the wait ran out, or the charger met an
      // outage): the accept is tried again, and refused as before if nothing landed.
      return status === 'failed' ? 'failed' : status === 'succeeded' ? 'accept' : 'not-applicable'
    }
    case 'claimed':
      return (await charge(deps, claim)) === 'failed' ? 'failed' : 'accept'
  }
}
