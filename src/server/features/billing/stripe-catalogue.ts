import { getPlan, getTopUpPack, type PlanId, planIds, type TopUpPackId, topUpPackIds } from '#shared/plans.ts'

// What Vitrin sells on Stripe, derived from the shared catalogue (src/shared/plans.ts), and the
// fixed names that tie each Stripe Price to a plan or pack. Ids differ between test and live mode
// and between accounts; lookup keys do not, so code and `npm run billing:setup` agree on them.

export const stripeWebhookPath = '/api/billing/webhooks/stripe'

/** The events the webhook endpoint subscribes to; everything else is answered 200 and ignored. */
export const stripeWebhookEvents = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'payment_intent.succeeded',
  // Downgrades at the period's end (ours and the portal's) live on a subscription schedule.
  'subscription_schedule.created',
  'subscription_schedule.updated',
  'subscription_schedule.released',
  'subscription_schedule.canceled',
] as const

export type StripeCatalogueItem =
  | {
      kind: 'plan'
      planId: PlanId
      lookupKey: string
      productId: string
      name: string
      unitAmount: number
      recurring: 'month'
    }
  | {
      kind: 'pack'
      packId: TopUpPackId
      lookupKey: string
      productId: string
      name: string
      unitAmount: number
      recurring: null
    }

export function planLookupKey(planId: PlanId): string {
  return `vitrin_${planId}_monthly`
}

export function packLookupKey(packId: TopUpPackId): string {
  return `vitrin_topup_${packId}`
}

/** Every plan and pack as a Stripe product and price (amounts in cents, USD). */
export function stripeCatalogue(): StripeCatalogueItem[] {
  return [
    ...planIds.map((planId): StripeCatalogueItem => {
      const plan = getPlan(planId)
      return {
        kind: 'plan',
        planId,
        lookupKey: planLookupKey(planId),
        productId: `vitrin_plan_${planId}`,
        name: `Vitrin ${plan.name}`,
        unitAmount: plan.priceMonthlyUsd * 100,
        recurring: 'month',
      }
    }),
    ...topUpPackIds.map((packId): StripeCatalogueItem => {
      const pack = getTopUpPack(packId)
      return {
        kind: 'pack',
        packId,
        lookupKey: packLookupKey(packId),
        productId: `vitrin_topup_${packId}`,
        name: `Vitrin +${pack.amount} ${pack.resource}`,
        unitAmount: pack.priceUsd * 100,
        recurring: null,
      }
    }),
  ]
}

/** The plan or pack a price stands for: its lookup key, or the key setup wrote in its metadata. */
export function catalogueItemForPrice(price: {
  lookup_key: string | null
  metadata?: Record<string, string> | null
}): StripeCatalogueItem | null {
  const key = price.lookup_key ?? price.metadata?.vitrin_lookup_key ?? null
  return stripeCatalogue().find((item) => item.lookupKey === key) ?? null
}
