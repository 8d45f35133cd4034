import { eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { creditBalances, creditGrants } from '#server/db/schema/index.ts'
import { getTopUpPack, type TopUpPackId } from '#shared/plans.ts'

// Credits: images and videos bought in packs (billing's Checkout and auto top-up, or the
// operator), kept across periods and used after the plan's quota (quota.service.ts reserves them).

/** Bought images and videos not used yet. */
export type Credits = { images: number; videos: number }

/** Where credits come from: a Checkout payment, an auto top-up charge, or the operator. */
export type CreditOrigin = 'checkout' | 'auto_topup' | 'operator'

/**
 * Adds a pack's credits to the user's balance once per payment, in one statement (so it can run
 * on its own or inside the caller's transaction, e.g. beside a webhook's event record): the grant
 * row is inserted unless one with this payment reference exists, and the balance grows only by
 * a grant row this statement inserted. A payment delivered twice, even at the same moment,
 * credits once (the unique payment_ref makes the second insert wait for the first and then do
 * nothing). An operator's grant (paymentRef null) is never a duplicate. True when it granted.
 */
export async function grantCredits(
  db: Db,
  input: { userId: string; packId: TopUpPackId; paymentRef: string | null; origin: CreditOrigin },
): Promise<boolean> {
  const pack = getTopUpPack(input.packId)
  const images = pack.resource === 'images' ? pack.amount : 0
  const videos = pack.resource === 'videos' ? pack.amount : 0
  const result = (await db.execute(sql`
    with granted as (
      insert into ${creditGrants} (user_id, pack_id, resource, amount, origin, payment_ref)
      values (${input.userId}, ${pack.id}, ${pack.resource}, ${pack.amount}, ${input.origin}, ${input.paymentRef})
      on conflict (payment_ref) do nothing
      returning user_id
    ),
    credited as (
      insert into ${creditBalances} (user_id, images, videos)
      select user_id, ${images}::int, ${videos}::int from granted
      on conflict (user_id) do update
        set images = ${creditBalances}.images + excluded.images,
          videos = ${creditBalances}.videos + excluded.videos,
          updated_at = now()
      returning user_id
    )
    select count(*)::int as granted from credited
  `)) as unknown as { rows: { granted: number }[] }
  return Number(result.rows[0]?.granted ?? 0) > 0
}

/** The user's credit balance (0 and 0 before any grant). */
export async function getCredits(db: Db, userId: string): Promise<Credits> {
  const [row] = await db
    .select({ images: creditBalances.images, videos: creditBalances.videos })
    .from(creditBalances)
    .where(eq(creditBalances.userId, userId))
  return { images: row?.images ?? 0, videos: row?.videos ?? 0 }
}
