import { createHash } from 'node:crypto'
import type Stripe from 'stripe'
import { stripeApiVersion } from './stripe-billing-provider.ts'
import { stripeCatalogue, stripeWebhookEvents, stripeWebhookPath } from './stripe-catalogue.ts'

export type SetupAction = 'created' | 'updated' | 'unchanged'

export type SetupStep = {
  object: 'product' | 'price' | 'portal configuration' | 'webhook endpoint'
  /** The product id, price lookup key, or what the object is. */
  name: string
  action: SetupAction
  id: string
  /** Extra words for the operator (e.g. the new endpoint's signing secret). */
  note?: string
}

/** A short fingerprint of what we want an object to be, stored in its metadata to tell "unchanged". */
function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16)
}

function isMissing(error: unknown): boolean {
  return (error as { statusCode?: number }).statusCode === 404
}

/**
 * Makes the Stripe account sell what Vitrin sells: one product per plan and pack, each with an
 * active price under its lookup key (a price's amount cannot change, so a new amount is a new
 * price that takes the lookup key over, and the old one is archived), the customer-portal
 * configuration (cards, invoices, cancel at period end, plan switching with downgrades at the
 * period's end) and the webhook endpoint at PUBLIC_URL. Running it again changes nothing.
 */
export async function setUpStripe(stripe: Stripe, input: { publicUrl: string }): Promise<SetupStep[]> {
  const steps: SetupStep[] = []
  const catalogue = stripeCatalogue()
  const planPrices: { product: string; prices: string[] }[] = []

  for (const item of catalogue) {
    let product: Stripe.Product | null = null
    try {
      product = await stripe.products.retrieve(item.productId)
    } catch (error) {
      if (!isMissing(error)) throw error
    }
    if (!product) {
      product = await stripe.products.create({
        id: item.productId,
        name: item.name,
        metadata: { vitrin: 'true' },
      })
      steps.push({ object: 'product', name: item.productId, action: 'created', id: product.id })
    } else if (product.name !== item.name || !product.active) {
      product = await stripe.products.update(item.productId, { name: item.name, active: true })
      steps.push({ object: 'product', name: item.productId, action: 'updated', id: product.id })
    } else {
      steps.push({ object: 'product', name: item.productId, action: 'unchanged', id: product.id })
    }

    const existing = (await stripe.prices.list({ lookup_keys: [item.lookupKey], limit: 1 })).data[0]
    const isSame =
      existing?.active &&
      existing.unit_amount === item.unitAmount &&
      existing.currency === 'usd' &&
      idOf(existing.product) === item.productId &&
      (existing.recurring?.interval ?? null) === item.recurring
    let priceId: string
    if (existing && isSame) {
      priceId = existing.id
      steps.push({ object: 'price', name: item.lookupKey, action: 'unchanged', id: existing.id })
    } else {
      const created = await stripe.prices.create({
        product: item.productId,
        currency: 'usd',
        unit_amount: item.unitAmount,
        ...(item.recurring ? { recurring: { interval: item.recurring } } : {}),
        lookup_key: item.lookupKey,
        transfer_lookup_key: true,
        nickname: item.name,
        // Kept when the lookup key moves to a newer price, so subscriptions on this one still map to their plan.
        metadata: { vitrin_lookup_key: item.lookupKey },
      })
      if (existing?.active) await stripe.prices.update(existing.id, { active: false })
      priceId = created.id
      steps.push({
        object: 'price',
        name: item.lookupKey,
        action: existing ? 'updated' : 'created',
        id: created.id,
        ...(existing ? { note: `replaces ${existing.id} (archived)` } : {}),
      })
    }
    if (item.kind === 'plan') planPrices.push({ product: item.productId, prices: [priceId] })
  }

  // The customer portal: cards, invoices, cancel at the period's end, switching between plans
  // (upgrades prorated and charged now, downgrades at the period's end).
  const portal: Stripe.BillingPortal.ConfigurationCreateParams = {
    business_profile: { headline: 'Vitrin' },
    default_return_url: `${input.publicUrl}/billing`,
    features: {
      customer_update: { enabled: true, allowed_updates: ['email', 'address', 'tax_id'] },
      invoice_history: { enabled: true },
      payment_method_update: { enabled: true },
      subscription_cancel: { enabled: true, mode: 'at_period_end', proration_behavior: 'none' },
      subscription_update: {
        enabled: true,
        default_allowed_updates: ['price'],
        products: planPrices,
        proration_behavior: 'always_invoice',
        schedule_at_period_end: { conditions: [{ type: 'decreasing_item_amount' }] },
      },
    },
  }
  const portalPrint = fingerprint(portal)
  const configs = await stripe.billingPortal.configurations.list({ limit: 100 })
  const ours = configs.data.find((config) => config.metadata?.vitrin === 'true')
  if (!ours) {
    const created = await stripe.billingPortal.configurations.create({
      ...portal,
      metadata: { vitrin: 'true', vitrin_fingerprint: portalPrint },
    })
    steps.push({ object: 'portal configuration', name: 'customer portal', action: 'created', id: created.id })
  } else if (ours.metadata?.vitrin_fingerprint !== portalPrint || !ours.active) {
    await stripe.billingPortal.configurations.update(ours.id, {
      ...portal,
      active: true,
      metadata: { vitrin_fingerprint: portalPrint },
    })
    steps.push({ object: 'portal configuration', name: 'customer portal', action: 'updated', id: ours.id })
  } else {
    steps.push({ object: 'portal configuration', name: 'customer portal', action: 'unchanged', id: ours.id })
  }

  const url = `${input.publicUrl}${stripeWebhookPath}`
  const events = [...stripeWebhookEvents].sort()
  const endpoints = await stripe.webhookEndpoints.list({ limit: 100 })
  const endpoint =
    endpoints.data.find((e) => e.metadata?.vitrin === 'true') ?? endpoints.data.find((e) => e.url === url)
  if (!endpoint) {
    const created = await stripe.webhookEndpoints.create({
      url,
      enabled_events: [...events],
      // Events arrive in the shape the pinned SDK's types describe.
      api_version: stripeApiVersion,
      description: 'Vitrin billing',
      metadata: { vitrin: 'true' },
    })
    steps.push({
      object: 'webhook endpoint',
      name: url,
      action: 'created',
      id: created.id,
      note: `set STRIPE_WEBHOOK_SECRET=${created.secret ?? '(see the Stripe dashboard)'}`,
    })
  } else if (
    endpoint.url !== url ||
    endpoint.status !== 'enabled' ||
    [...endpoint.enabled_events].sort().join(',') !== events.join(',')
  ) {
    await stripe.webhookEndpoints.update(endpoint.id, {
      url,
      enabled_events: [...events],
      disabled: false,
      metadata: { vitrin: 'true' },
    })
    steps.push({ object: 'webhook endpoint', name: url, action: 'updated', id: endpoint.id })
  } else {
    steps.push({ object: 'webhook endpoint', name: url, action: 'unchanged', id: endpoint.id })
  }
  if (endpoint?.api_version && endpoint.api_version !== stripeApiVersion) {
    const last = steps.at(-1)
    if (last) {
      last.note = `its API version is ${endpoint.api_version}, not ${stripeApiVersion}: delete it and run this again (Stripe cannot change it)`
    }
  }
  return steps
}

function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id
}
