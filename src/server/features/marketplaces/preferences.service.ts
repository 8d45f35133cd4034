import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { userPreferences } from '#server/db/schema/index.ts'
import type { PreferencesResponse, UpdatePreferencesRequest } from '#shared/contracts/marketplaces.ts'
import { isMarketplaceId } from '#shared/marketplaces/ids.ts'

// The seller's preferred marketplace: every default (the result's shape, the catalogue's preset,
// the checker's profile) starts from it.

export async function getPreferences(db: Db, userId: string): Promise<PreferencesResponse> {
  const [row] = await db
    .select({ marketplaceProfile: userPreferences.marketplaceProfile })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId))
  const profile = row?.marketplaceProfile ?? null
  // A profile id stored by an older version and since retired reads as no choice.
  return { marketplaceProfile: profile !== null && isMarketplaceId(profile) ? profile : null }
}

export async function updatePreferences(
  db: Db,
  userId: string,
  input: UpdatePreferencesRequest,
): Promise<PreferencesResponse> {
  await db
    .insert(userPreferences)
    .values({ userId, marketplaceProfile: input.marketplaceProfile })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { marketplaceProfile: input.marketplaceProfile, updatedAt: new Date() },
    })
  return getPreferences(db, userId)
}
