import Stripe from 'stripe'
import { stripeWebhookPath } from '#server/features/billing/stripe-catalogue.ts'
import { setUpStripe } from '#server/features/billing/stripe-setup.ts'
import type { StripeFake } from '#tests/fakes/stripe-server.ts'
import { resetDatabase, type TestServer } from './test-server.ts'

/** The webhook secret the Stripe-billing test servers are configured with. */
export const stripeWebhookSecret = 'whsec_vitrin_test_secret'

/** The real SDK pointed at the fake Stripe server. */
export function stripeSdkFor(fake: StripeFake): Stripe {
  return new Stripe('sk_test_setup', {
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  })
}

/** Settings for a test server billing through the fake. */
export function stripeBillingEnv(fake: StripeFake): Record<string, string> {
  return {
    BILLING_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_vitrin',
    STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
    STRIPE_API_BASE: fake.url,
  }
}

/**
 * Before each test: deliveries a test set off after its last assertion land, the fake and the
 * database start empty, and the account is as `npm run billing:setup` leaves it.
 */
export async function resetStripeAccount(fake: StripeFake, server: TestServer): Promise<void> {
  await fake.idle()
  fake.reset()
  await resetDatabase(server.database)
  await setUpStripeAccount(fake, server.url)
}

/**
 * Makes the fake's account what `npm run billing:setup` makes for the app at `appUrl`. The
 * endpoint setup made has its own secret, not the app's, so deliveries go to one with the
 * configured secret instead. Also used by bench/billing.ts.
 */
export async function setUpStripeAccount(fake: StripeFake, appUrl: string): Promise<void> {
  const steps = await setUpStripe(stripeSdkFor(fake), { publicUrl: appUrl })
  const made = steps.find((step) => step.object === 'webhook endpoint')
  await stripeSdkFor(fake).webhookEndpoints.update(made?.id as string, { disabled: true })
  fake.addWebhookEndpoint(`${appUrl}${stripeWebhookPath}`, stripeWebhookSecret)
}
