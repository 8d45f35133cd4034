import { startStripeFake } from '#tests/fakes/stripe-server.ts'
import { setUpStripeAccount, stripeBillingEnv } from '#tests/support/stripe-app.ts'
import type { ChildReady } from '../lib/child.ts'

// Child process for bench/billing.ts: the fake Stripe server (tests/fakes/stripe-server.ts)
// with its control routes, in its own process so that neither the app nor the load generator
// pays for its work on their event loops.
//
// Reports { url, appSettings } over IPC once listening (appSettings: what an app billing through
// it is started with). Answers { type: 'connect', appUrl } with 'connected' once the account is
// as `npm run billing:setup` leaves it and webhooks go to that app. SIGTERM stops it.

const fake = await startStripeFake({ port: 0, control: true })

process.on('message', (message: unknown) => {
  const request = message as { type?: unknown; appUrl?: unknown }
  if (request.type !== 'connect' || typeof request.appUrl !== 'string') return
  setUpStripeAccount(fake, request.appUrl).then(
    () => process.send?.({ type: 'connected' }),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
})

process.send?.({ url: fake.url, appSettings: stripeBillingEnv(fake) } satisfies ChildReady)

process.on('SIGTERM', () => {
  fake.close().finally(() => process.exit(0))
})
