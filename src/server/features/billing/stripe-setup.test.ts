import { execFile } from 'node:child_process'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StripeFake, startStripeFake } from '#tests/fakes/stripe-server.ts'
import { stripeApiVersion } from './stripe-billing-provider.ts'
import { catalogueItemForPrice, stripeCatalogue, stripeWebhookEvents } from './stripe-catalogue.ts'
import { setUpStripe } from './stripe-setup.ts'

// `npm run billing:setup` against the fake Stripe server: what it makes, that a second run
// changes nothing, and that a changed amount becomes a new price under the same lookup key.

let fake: StripeFake
const publicUrl = 'https://vitrin.example.com'

function sdk(): Stripe {
  return new Stripe('sk_test_setup', {
    host: fake.host,
    port: fake.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  })
}

describe('billing:setup', () => {
  beforeAll(async () => {
    fake = await startStripeFake()
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('creates products, prices, the portal and the webhook endpoint once, then changes nothing', async () => {
    const first = await setUpStripe(sdk(), { publicUrl })
    const catalogue = stripeCatalogue()
    expect(first.filter((s) => s.action === 'created')).toHaveLength(first.length)
    expect(first).toHaveLength(catalogue.length * 2 + 2)

    const prices = await sdk().prices.list({ lookup_keys: catalogue.map((item) => item.lookupKey) })
    expect(
      prices.data.map((p) => [p.lookup_key, p.unit_amount, p.recurring?.interval ?? null]).sort(),
    ).toEqual(catalogue.map((item) => [item.lookupKey, item.unitAmount, item.recurring]).sort())
    expect(catalogue.map((item) => item.lookupKey)).toEqual(
      expect.arrayContaining(['vitrin_growth_monthly', 'vitrin_topup_images_100', 'vitrin_topup_videos_10']),
    )
    const endpoint = fake.lastOf('we_')
    expect(endpoint).toMatchObject({
      url: `${publicUrl}/api/billing/webhooks/stripe`,
      api_version: stripeApiVersion,
      enabled_events: [...stripeWebhookEvents].sort(),
    })
    const portal = fake.lastOf('bpc_') as { features: { subscription_cancel: { mode: string } } }
    expect(portal.features.subscription_cancel.mode).toBe('at_period_end')
    expect(first.find((s) => s.object === 'webhook endpoint')?.note).toMatch(
      /^set STRIPE_WEBHOOK_SECRET=whsec_/,
    )

    const second = await setUpStripe(sdk(), { publicUrl })
    expect(second.map((s) => s.action)).toEqual(second.map(() => 'unchanged'))
    expect(second.map((s) => s.id)).toEqual(first.map((s) => s.id))
  })

  it('moves a lookup key to a new price when the amount changed, archiving the old one', async () => {
    const [old] = (await sdk().prices.list({ lookup_keys: ['vitrin_starter_monthly'] })).data
    // As if the catalogue's Starter price had been different when setup last ran.
    ;(fake.objects.get(old?.id as string) as { unit_amount: number }).unit_amount = 8900
    const steps = await setUpStripe(sdk(), { publicUrl })
    const changed = steps.filter((s) => s.action !== 'unchanged')
    // The portal lists the plans' prices, so it follows the new one.
    expect(changed).toEqual([
      expect.objectContaining({ object: 'price', name: 'vitrin_starter_monthly', action: 'updated' }),
      expect.objectContaining({ object: 'portal configuration', action: 'updated' }),
    ])
    const [now] = (await sdk().prices.list({ lookup_keys: ['vitrin_starter_monthly'] })).data
    expect(now?.id).not.toBe(old?.id)
    expect(now?.unit_amount).toBe(9900)
    const archived = await sdk().prices.retrieve(old?.id as string)
    expect(archived).toMatchObject({ active: false, lookup_key: null })
    // Subscriptions still on the old price keep mapping to their plan.
    expect(catalogueItemForPrice(archived)).toMatchObject({ kind: 'plan', planId: 'starter' })
  })

  it('runs as an npm script against the configured account', async () => {
    // Asynchronously: the fake answers from this process, which must not be blocked meanwhile.
    const run = (env: Record<string, string>) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          'tsx',
          ['src/server/features/billing/billing-setup.cli.ts'],
          { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8' },
          (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        )
      })
    const stripeEnv = {
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_cli',
      STRIPE_WEBHOOK_SECRET: 'whsec_first_run',
      STRIPE_API_BASE: fake.url,
      PUBLIC_URL: publicUrl,
    }
    const again = await run(stripeEnv)
    expect(again.stderr).toBe('')
    expect(again.status).toBe(0)
    expect(again.stdout).toContain('price vitrin_growth_monthly: unchanged (price_')
    expect(again.stdout.trim().split('\n').at(-1)).toBe('Stripe is already set up: nothing changed.')

    const manual = await run({ BILLING_PROVIDER: 'manual' })
    expect(manual.status).toBe(2)
    expect(manual.stderr).toContain('BILLING_PROVIDER=stripe')
  }, 60_000)
})
