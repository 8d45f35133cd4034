import { and, eq, inArray, ne } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { billingCustomers, subscriptions, users } from '#server/db/schema/index.ts'
import { requestContext } from '#server/http/request-context.ts'
import { type BillingEmailFacts, enqueueBillingEmail } from './billing-emails.ts'
import type { ProviderSubscription } from './billing-provider.ts'

export type AppliedSubscription =
  | {
      applied: true
      userId: string
      subscriptionId: string
      /** Outbox emails this change wrote (payment failed, plan ending), to deliver after the commit. */
      emailIds: string[]
    }
  | { applied: false; reason: 'unknown-customer' | 'unknown-plan' | 'not-started' | 'other-user' }

/** The user a provider customer belongs to: the stored customer id first, else the metadata's user. */
async function userFor(db: Db, customerId: string, metadataUserId: string | null): Promise<string | null> {
  const [stored] = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.customerId, customerId))
  if (stored) return stored.userId
  if (!metadataUserId) return null
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, metadataUserId))
  return user?.id ?? null
}

/**
 * Makes the user's subscription row say what the provider says now (plan, status, period,
 * cancel at period end, scheduled downgrade). Idempotent: applying the same state twice changes
 * nothing, and since the state is fetched fresh, the order events arrive in does not matter.
 * A subscription first seen active replaces the user's current plan (a manual one or a trial),
 * keeping its settings. Run it inside the caller's transaction (the webhook's), or on its own.
 */
export async function applyProviderSubscription(
  db: Db,
  state: ProviderSubscription,
  now: Date,
  /** The public origin, for the links in the emails a change writes. */
  emailOptions: { publicUrl: string } = { publicUrl: '' },
): Promise<AppliedSubscription> {
  const userId = await userFor(db, state.customerId, state.userId)
  if (!userId) return { applied: false, reason: 'unknown-customer' }
  const isLive = state.status === 'active' || state.status === 'past_due'
  const [existing] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubId, state.subscriptionId))
    .for('update')
  if (existing && existing.userId !== userId) return { applied: false, reason: 'other-user' }
  if (!existing && !isLive) return { applied: false, reason: 'not-started' }
  const planId = state.planId ?? existing?.planId
  if (!planId) return { applied: false, reason: 'unknown-plan' }

  // At most one live plan per user (a partial unique index): any other one ends here.
  const others = isLive
    ? await db
        .update(subscriptions)
        .set({ status: 'canceled', canceledAt: now })
        .where(
          and(
            eq(subscriptions.userId, userId),
            inArray(subscriptions.status, ['active', 'past_due']),
            ...(existing ? [ne(subscriptions.id, existing.id)] : []),
          ),
        )
        .returning()
    : []
  const fields = {
    planId,
    status: state.status ?? existing?.status ?? 'active',
    currentPeriodStart: state.periodStart,
    currentPeriodEnd: state.periodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    scheduledPlanId: state.scheduledPlanId,
    stripeCustomerId: state.customerId,
  }
  // Emails about what changed, written with the change: a payment that failed (live → past
  // due) and a cancel at the period's end being set. Applying the same state again changes
  // nothing, so a duplicate or late delivery writes no second email.
  const isNowLive = fields.status === 'active' || fields.status === 'past_due'
  const emails: BillingEmailFacts[] = []
  if (fields.status === 'past_due' && existing?.status !== 'past_due') {
    emails.push({ kind: 'billing_payment_failed', planId })
  }
  if (isNowLive && fields.cancelAtPeriodEnd && !existing?.cancelAtPeriodEnd) {
    emails.push({ kind: 'subscription_ending', planId, endsAt: fields.currentPeriodEnd })
  }
  const writeEmails = async () => {
    // The user's language when they caused the change here (a cancel); a webhook has none, and
    // the email takes the language they last used the app in.
    const locale = requestContext.getStore()?.locale ?? null
    const ids: string[] = []
    for (const facts of emails) {
      const id = await enqueueBillingEmail(db, { userId, locale, publicUrl: emailOptions.publicUrl, facts })
      if (id) ids.push(id)
    }
    return ids
  }
  if (existing) {
    const ended = fields.status === 'canceled' || fields.status === 'expired'
    await db
      .update(subscriptions)
      .set({ ...fields, canceledAt: ended ? (existing.canceledAt ?? now) : null })
      .where(eq(subscriptions.id, existing.id))
    return { applied: true, userId, subscriptionId: existing.id, emailIds: await writeEmails() }
  }
  const previous = others[0]
  const [created] = await db
    .insert(subscriptions)
    .values({
      ...fields,
      userId,
      provider: 'stripe',
      isTrial: false,
      stripeSubId: state.subscriptionId,
      byoApiEnabled: previous?.byoApiEnabled ?? false,
      autoTopupEnabled: previous?.autoTopupEnabled ?? false,
    })
    .returning({ id: subscriptions.id })
  if (!created) throw new Error('subscription insert returned no row')
  return { applied: true, userId, subscriptionId: created.id, emailIds: await writeEmails() }
}

/** The user's live subscription at the payment provider (active or past due), if any. */
export async function getProviderSubscriptionRow(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.provider, 'stripe'),
        inArray(subscriptions.status, ['active', 'past_due']),
      ),
    )
    .limit(1)
  return row ?? null
}
