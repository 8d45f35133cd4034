import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '#server/config.ts'

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  throw new Error('expected the configuration to be refused')
}

const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }

describe('billing settings', () => {
  it('bills manually by default, and a Stripe key alone does not switch it', () => {
    expect(loadConfig({})).toMatchObject({ billingProvider: 'manual', stripe: undefined })
    expect(loadConfig(keys)).toMatchObject({ billingProvider: 'manual', stripe: undefined })
  })

  it('refuses stripe without both keys, and malformed keys', () => {
    expect(problemsOf({ BILLING_PROVIDER: 'stripe' })).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: are both required/),
    ])
    expect(problemsOf({ BILLING_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc123' })).toHaveLength(1)
    const bad = problemsOf({
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'pk_test_1',
      STRIPE_WEBHOOK_SECRET: 'x',
    })
    expect(bad.some((p) => p.startsWith('STRIPE_SECRET_KEY:'))).toBe(true)
    expect(bad.some((p) => p.startsWith('STRIPE_WEBHOOK_SECRET:'))).toBe(true)
    expect(problemsOf({ BILLING_PROVIDER: 'paypal' })[0]).toMatch(/^BILLING_PROVIDER:/)
  })

  it('points the SDK at STRIPE_API_BASE, refusing plain http in production', () => {
    expect(
      loadConfig({ BILLING_PROVIDER: 'stripe', ...keys, STRIPE_API_BASE: 'http://127.0.0.1:4700' }).stripe,
    ).toEqual({
      secretKey: keys.STRIPE_SECRET_KEY,
      webhookSecret: keys.STRIPE_WEBHOOK_SECRET,
      api: { host: '127.0.0.1', port: 4700, protocol: 'http' },
    })
    expect(loadConfig({ BILLING_PROVIDER: 'stripe', ...keys }).stripe?.api).toBeUndefined()
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://vitrin.example.com',
      BILLING_PROVIDER: 'stripe',
      ...keys,
    }
    expect(problemsOf({ ...production, STRIPE_API_BASE: 'http://stripe-fake:4700' })).toEqual([
      expect.stringMatching(/^STRIPE_API_BASE: must be an https:\/\/ URL in production/),
    ])
    expect(
      loadConfig({ ...production, STRIPE_API_BASE: 'https://stripe-proxy.example.com' }).stripe?.api,
    ).toEqual({
      host: 'stripe-proxy.example.com',
      port: 443,
      protocol: 'https',
    })
    expect(problemsOf({ STRIPE_API_BASE: 'ftp://x' })[0]).toMatch(/^STRIPE_API_BASE:/)
  })
})
