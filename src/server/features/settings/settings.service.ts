import { and, eq } from 'drizzle-orm'
import type { SecretBox } from '#server/crypto/secret-box.ts'
import type { Db } from '#server/db/client.ts'
import { billingCustomers, providerKeys, subscriptions } from '#server/db/schema/index.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import { AppError } from '#shared/errors.ts'

export type SettingsDeps = {
  db: Db
  keyBox: SecretBox
  /** Whether payments are taken (the billing provider is live): the top-up settings say so. */
  isBillingLive: boolean
  /** The operator's providers for images and videos (config: providers); the built-in studio when left out. */
  providers?: { image: 'offline' | 'fal'; video: 'offline' | 'fal' }
}

/** The mask shown for a saved key: never more than its last four characters. */
export function maskKey(last4: string): string {
  return `••••${last4}`
}

export async function getSettings(deps: SettingsDeps, userId: string, now: Date): Promise<SettingsResponse> {
  const subscription = await getActiveSubscription(deps.db, userId, now)
  const [key] = await deps.db
    .select({ last4: providerKeys.last4 })
    .from(providerKeys)
    .where(and(eq(providerKeys.userId, userId), eq(providerKeys.provider, 'fal')))
  const [customer] = await deps.db
    .select({ cap: billingCustomers.autoTopupMonthlyCap })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId))
  // The seller's own fal key, switched on, makes their images and videos whatever the operator set.
  const hasOwnKey = (subscription?.byoApiEnabled ?? false) && key !== undefined
  const maker = (provider: 'offline' | 'fal') => (provider === 'offline' && !hasOwnKey ? 'offline' : 'ai')
  return {
    hasSubscription: subscription !== null,
    autoTopupEnabled: subscription?.autoTopupEnabled ?? false,
    byoApiEnabled: subscription?.byoApiEnabled ?? false,
    falKey: { isSet: key !== undefined, mask: key ? maskKey(key.last4) : null },
    isBillingLive: deps.isBillingLive,
    autoTopupMonthlyCap: customer?.cap ?? null,
    studio: {
      image: maker(deps.providers?.image ?? 'offline'),
      video: maker(deps.providers?.video ?? 'offline'),
    },
  }
}

/** Stores the toggles on the active subscription (their columns are in db/schema/billing.ts). */
export async function updateSettings(
  deps: SettingsDeps,
  userId: string,
  input: {
    autoTopupEnabled?: boolean | undefined
    byoApiEnabled?: boolean | undefined
    autoTopupMonthlyCap?: number | undefined
  },
  now: Date,
): Promise<SettingsResponse> {
  const subscription = await getActiveSubscription(deps.db, userId, now)
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'Choose a plan first')
  if (input.autoTopupMonthlyCap !== undefined) {
    // The cap lives beside the provider's customer (db/schema/billing.ts): without one there is
    // no saved card to charge, so nothing to cap yet.
    const [updated] = await deps.db
      .update(billingCustomers)
      .set({ autoTopupMonthlyCap: input.autoTopupMonthlyCap })
      .where(eq(billingCustomers.userId, userId))
      .returning({ userId: billingCustomers.userId })
    if (!updated) {
      throw new AppError('VALIDATION_FAILED', 'No saved card to cap auto top-up for', {
        fields: { autoTopupMonthlyCap: 'invalid' },
      })
    }
  }
  if (input.autoTopupEnabled === undefined && input.byoApiEnabled === undefined) {
    return getSettings(deps, userId, now)
  }
  await deps.db
    .update(subscriptions)
    .set({
      ...(input.autoTopupEnabled === undefined ? {} : { autoTopupEnabled: input.autoTopupEnabled }),
      ...(input.byoApiEnabled === undefined ? {} : { byoApiEnabled: input.byoApiEnabled }),
    })
    .where(eq(subscriptions.id, subscription.id))
  return getSettings(deps, userId, now)
}

/** Saves (or replaces) the user's fal key, encrypted; only its last four characters stay readable. */
export async function saveFalKey(
  deps: SettingsDeps,
  userId: string,
  key: string,
  now: Date,
): Promise<SettingsResponse> {
  const values = { encryptedKey: deps.keyBox.seal(key), last4: key.slice(-4) }
  await deps.db
    .insert(providerKeys)
    .values({ userId, provider: 'fal', ...values })
    .onConflictDoUpdate({
      target: [providerKeys.userId, providerKeys.provider],
      set: { ...values, createdAt: now },
    })
  return getSettings(deps, userId, now)
}

export async function deleteFalKey(deps: SettingsDeps, userId: string, now: Date): Promise<SettingsResponse> {
  await deps.db
    .delete(providerKeys)
    .where(and(eq(providerKeys.userId, userId), eq(providerKeys.provider, 'fal')))
  return getSettings(deps, userId, now)
}

/** The user's own fal key, decrypted, for their jobs (server-side only; never sent anywhere else). */
export async function readFalKey(
  deps: Pick<SettingsDeps, 'db' | 'keyBox'>,
  userId: string,
): Promise<string | null> {
  const [row] = await deps.db
    .select({ encryptedKey: providerKeys.encryptedKey })
    .from(providerKeys)
    .where(and(eq(providerKeys.userId, userId), eq(providerKeys.provider, 'fal')))
  return row ? deps.keyBox.open(row.encryptedKey) : null
}
