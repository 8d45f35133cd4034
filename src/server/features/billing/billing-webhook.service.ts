import { eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { billingCustomers, billingEvents, users } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/email/outbox.ts'
import { grantCredits } from '#server/features/quota/credits.service.ts'
import type { BillingProviderKind } from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import { deliverBillingEmails, enqueueBillingEmail } from './billing-emails.ts'
import type { BillingProvider, BillingWebhookEffect } from './billing-provider.ts'
import { applyProviderSubscription } from './provider-subscription.ts'

export type WebhookDeps = {
  db: Db
  billing: BillingProvider
  now: () => Date
  /** Delivers the emails an event writes (payment failed, plan ending) once it is committed. */
  mailer?: Mailer | undefined
  /** The public origin, for the links in those emails. */
  publicUrl?: string | undefined
  /**
   * Several server processes share the database (PostgreSQL): events about one subject are then
   * also serialized across processes, by a transaction-scoped advisory lock.
   */
  isSharedDatabase?: boolean | undefined
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored'

// Events about one subscription or payment are applied one after another (two fetched states
// committed in the other order would leave the older one standing): in this process by a queue
// per subject, and across processes on a shared database by an advisory lock (subjectLocked).
const queues = new Map<string, Promise<unknown>>()

function oneAtATime<T>(subject: string | null, run: () => Promise<T>): Promise<T> {
  if (!subject) return run()
  const previous = queues.get(subject) ?? Promise.resolve()
  const next = previous.catch(() => undefined).then(run)
  queues.set(subject, next)
  void next
    .catch(() => undefined)
    .finally(() => {
      if (queues.get(subject) === next) queues.delete(subject)
    })
  return next
}

/**
 * Runs `run` in a transaction that first takes the subject's advisory lock, so that a delivery
 * about the same subject in another process waits until this one commits. The provider's state is
 * read inside it, after the lock: the later of two deliveries then reads the later state. Only on
 * PostgreSQL (on the embedded database there is one process, and a transaction would hold the
 * whole database during the provider call).
 */
export function subjectLocked<T>(db: Db, subject: string, run: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`billing:${subject}`}, 0))`)
    return run(tx as unknown as Db)
  })
}

/** Thrown inside an event's transaction when another delivery of it committed first. */
class DuplicateDelivery extends Error {}

async function isRecorded(db: Db, eventId: string): Promise<boolean> {
  const [found] = await db
    .select({ id: billingEvents.id })
    .from(billingEvents)
    .where(eq(billingEvents.id, eventId))
  return Boolean(found)
}

/** The user a provider customer belongs to: the stored customer id first, else the metadata's user. */
async function customerUser(
  db: Db,
  customerId: string,
  metadataUserId: string | null,
): Promise<string | null> {
  const [stored] = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.customerId, customerId))
  if (stored) return stored.userId
  if (!metadataUserId) return null
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, metadataUserId))
  return user?.id ?? null
}

/** Applies one effect inside the event's transaction; returns what the event record keeps. */
async function applyEffect(
  tx: Db,
  effect: BillingWebhookEffect,
  now: Date,
  publicUrl: string,
): Promise<Record<string, unknown> & { emailIds?: string[] }> {
  if (effect.kind === 'subscription') {
    const applied = await applyProviderSubscription(tx, effect.subscription, now, { publicUrl })
    return { subscription: effect.subscription.subscriptionId, ...applied }
  }
  if (effect.kind === 'credit') {
    const userId = await customerUser(tx, effect.customerId, effect.userId)
    if (!userId) return { payment: effect.paymentRef, applied: false, reason: 'unknown-customer' }
    const granted = await grantCredits(tx, {
      userId,
      packId: effect.packId,
      paymentRef: effect.paymentRef,
      origin: effect.origin,
    })
    return { payment: effect.paymentRef, userId, packId: effect.packId, granted }
  }
  if (effect.kind === 'payment_action_required') {
    const userId = await customerUser(tx, effect.customerId, null)
    if (!userId) return { applied: false, reason: 'unknown-customer' }
    const emailId = await enqueueBillingEmail(tx, {
      userId,
      locale: null,
      publicUrl,
      facts: { kind: 'billing_action_required', invoiceUrl: effect.invoiceUrl },
    })
    return { userId, emailIds: emailId ? [emailId] : [] }
  }
  return { ignored: true }
}

/**
 * Applies an effect read outside a webhook (the return page's check of its checkout session),
 * one at a time with the webhooks about the same subject and in the same words, so whichever of
 * the two comes second changes nothing. No event is recorded: the webhook's own delivery still
 * records its id. True when the effect took hold (a subscription applied, a pack credited now or
 * before); false when there is nothing to apply yet (e.g. a subscription not started).
 */
export function applyBillingEffect(
  deps: WebhookDeps,
  subject: string | null,
  effect: BillingWebhookEffect,
): Promise<boolean> {
  if (effect.kind === 'ignored') return Promise.resolve(false)
  return oneAtATime(subject, async () => {
    const summary = await deps.db.transaction((tx) =>
      applyEffect(tx, effect, deps.now(), deps.publicUrl ?? ''),
    )
    await deliverBillingEmails(deps.mailer, summary.emailIds ?? [])
    return summary.applied !== false
  })
}

/**
 * One webhook delivery: verified on its raw bytes (WEBHOOK_SIGNATURE_INVALID otherwise), then,
 * unless its event id is already recorded, read (fetching the provider's current state) and
 * applied in one transaction together with the record of its id. On the embedded database the
 * state is fetched before the transaction (a transaction holds the whole database); on a shared
 * PostgreSQL inside it, under the subject's lock (subjectLocked). The caller answers 2xx only when this
 * returns, i.e. after the commit; an error makes the provider deliver it again.
 */
export async function handleBillingWebhook(
  deps: WebhookDeps,
  provider: BillingProviderKind,
  rawBody: Uint8Array,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  if (provider !== deps.billing.kind || provider === 'manual') {
    throw new AppError('NOT_FOUND', 'No webhooks for this provider here')
  }
  const webhook = await deps.billing.verifyWebhook(rawBody, signature)
  if (await isRecorded(deps.db, webhook.eventId)) return 'duplicate'
  return oneAtATime(webhook.subject, async () => {
    // The effect first, then the event's record with its summary: one statement fewer than
    // recording first. A delivery of the same event that committed meanwhile makes the insert
    // find its id; this one's effects are then rolled back.
    const record = async (tx: Db, effect: BillingWebhookEffect) => {
      const summary =
        effect.kind === 'ignored'
          ? { ignored: true }
          : await applyEffect(tx, effect, deps.now(), deps.publicUrl ?? '')
      const [recorded] = await tx
        .insert(billingEvents)
        .values({ id: webhook.eventId, provider, type: webhook.type, summary })
        .onConflictDoNothing()
        .returning({ id: billingEvents.id })
      if (!recorded) throw new DuplicateDelivery()
      return {
        outcome: effect.kind === 'ignored' ? ('ignored' as const) : ('applied' as const),
        emailIds: 'emailIds' in summary ? (summary.emailIds ?? []) : [],
      }
    }
    const { subject } = webhook
    const applyOnce = async () => {
      if (deps.isSharedDatabase && subject) {
        return subjectLocked(deps.db, subject, async (tx) => record(tx, await webhook.resolve()))
      }
      const effect = await webhook.resolve()
      // An ignored event only records its id: one statement, no transaction.
      if (effect.kind === 'ignored') return record(deps.db, effect)
      return deps.db.transaction((tx) => record(tx as unknown as Db, effect))
    }
    const applied = await applyOnce().catch((error: unknown) => {
      if (error instanceof DuplicateDelivery) return { outcome: 'duplicate' as const, emailIds: [] }
      throw error
    })
    // After the commit, so the answer (2xx only once committed) never waits on a failed send
    // that would undo nothing; an undelivered email stays in the outbox as failed.
    await deliverBillingEmails(deps.mailer, applied.emailIds)
    return applied.outcome
  })
}
