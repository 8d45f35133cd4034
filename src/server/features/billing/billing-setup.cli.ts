import { ConfigError, loadConfig } from '#server/config.ts'
import { createStripeClient } from './stripe-billing-provider.ts'
import { setUpStripe } from './stripe-setup.ts'

// `npm run billing:setup`: creates or updates, in the Stripe account of STRIPE_SECRET_KEY, the
// products, prices, customer-portal configuration and webhook endpoint Vitrin needs, and prints
// what it did. Safe to run again (it then changes nothing) and while the server runs (no database).

const write = (line: string) => process.stdout.write(`${line}\n`)

let config: ReturnType<typeof loadConfig>
try {
  config = loadConfig()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`${error.message}\nSee .env.example for every setting.\n`)
  process.exit(1)
}
if (config.billingProvider !== 'stripe' || !config.stripe) {
  process.stderr.write(
    'billing:setup needs BILLING_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (any whsec_ value the first time: the endpoint made here prints its own)\n',
  )
  process.exit(2)
}
if (config.env === 'production' && !config.publicUrl.startsWith('https://')) {
  process.stderr.write('PUBLIC_URL must be https:// in production: Stripe delivers webhooks there\n')
  process.exit(2)
}

try {
  const steps = await setUpStripe(createStripeClient(config.stripe), { publicUrl: config.publicUrl })
  for (const step of steps) {
    write(`${step.object} ${step.name}: ${step.action} (${step.id})${step.note ? `; ${step.note}` : ''}`)
  }
  const changed = steps.filter((step) => step.action !== 'unchanged').length
  write(changed === 0 ? 'Stripe is already set up: nothing changed.' : `${changed} change(s) made.`)
} catch (error) {
  process.stderr.write(`Stripe setup failed: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
