import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import type { Mailer } from '#server/email/outbox.ts'
import { topUpForShortage } from './auto-topup.service.ts'
import type { BillingDeps } from './billing.service.ts'
import type { BillingProvider } from './billing-provider.ts'

/** What billing takes from the process's infrastructure (AppDeps's fields of these names). */
type Infrastructure = {
  database: Pick<Database, 'db' | 'kind'>
  billing: BillingProvider
  mailer: Mailer
  config: Pick<Config, 'publicUrl'>
  now: () => Date
}

/** The billing pages' and the payment provider's webhooks' dependencies. */
export function billingDeps(infra: Infrastructure): BillingDeps {
  return {
    db: infra.database.db,
    billing: infra.billing,
    now: infra.now,
    mailer: infra.mailer,
    publicUrl: infra.config.publicUrl,
    isSharedDatabase: infra.database.kind === 'postgres',
  }
}

/** The auto top-up after a quota refusal, for the generations (their `topUp`). */
export function autoTopUp(infra: Infrastructure) {
  const { billing, mailer, config, now } = infra
  const { db } = infra.database
  return (shortage: Parameters<typeof topUpForShortage>[1]) =>
    topUpForShortage({ db, now, billing, mailer, publicUrl: config.publicUrl }, shortage)
}
