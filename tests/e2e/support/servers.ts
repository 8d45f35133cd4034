// Where the end-to-end servers listen. playwright.config.ts starts them from these values and
// tests import the same ones, so a port is written in one place. Everything derives from
// E2E_PORT, so two runs on one machine can be kept apart by giving each its own base port.

const basePort = Number(process.env.E2E_PORT ?? 4173)

/** The app on the offline studio providers (every spec's default baseURL). */
export const studioPort = basePort
export const studioBaseURL = `http://127.0.0.1:${studioPort}`

/**
 * The app with IMAGE_PROVIDER=fal, VIDEO_PROVIDER=fal and SEO_PROVIDER=openai, pointed at the
 * fakes below. Specs that drive it: `test.use({ baseURL: studioProvidersBaseURL })`.
 */
export const studioProvidersPort = basePort + 1
export const studioProvidersBaseURL = `http://127.0.0.1:${studioProvidersPort}`

/** tests/fakes/fal-server.ts: its origin is the app's FAL_BASE_URL; /__control/ scripts it. */
export const falFakePort = basePort + 2
export const falFakeURL = `http://127.0.0.1:${falFakePort}`

/** tests/fakes/openai-server.ts: the API is under /v1 (the app's OPENAI_BASE_URL); /__control/ scripts it. */
export const openaiFakePort = basePort + 3
export const openaiFakeURL = `http://127.0.0.1:${openaiFakePort}`
export const openaiFakeApiURL = `${openaiFakeURL}/v1`

/**
 * The app with BILLING_PROVIDER=stripe, its Stripe SDK pointed at the fake below. Specs that
 * drive it: `test.use({ baseURL: studioStripeBaseURL })`.
 */
export const studioStripePort = basePort + 4
export const studioStripeBaseURL = `http://127.0.0.1:${studioStripePort}`

/**
 * tests/fakes/stripe-server.ts: the app's STRIPE_API_BASE, and where its hosted checkout and
 * portal pages are served (/checkout/…, /portal/…).
 */
export const stripeFakePort = basePort + 5
export const stripeFakeURL = `http://127.0.0.1:${stripeFakePort}`

/** The Stripe app's keys: the fake accepts any `sk_` key and signs its webhooks with this secret. */
export const stripeFakeSettings = {
  secretKey: 'sk_test_e2e_fake',
  webhookSecret: 'whsec_e2e_fake_secret',
} as const

/** What the fake-provider app sends: the fakes accept any key; the model name shows in SEO results. */
export const fakeProviderSettings = {
  falKey: 'e2e-fake-fal-key',
  openaiApiKey: 'e2e-fake-openai-key',
  openaiModel: 'e2e-fake-vision-model',
} as const

/** tests/fakes/trendyol-server.ts: the offline app's TRENDYOL_API_BASE is `${trendyolFakeURL}/integration`. */
export const trendyolFakePort = basePort + 6
export const trendyolFakeURL = `http://127.0.0.1:${trendyolFakePort}`

/** tests/fakes/hepsiburada-server.ts: the offline app's HEPSIBURADA_API_BASE. */
export const hepsiburadaFakePort = basePort + 7
export const hepsiburadaFakeURL = `http://127.0.0.1:${hepsiburadaFakePort}`
