import { eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type AssetRow, assets, generations, imageFactsClaims } from '#server/db/schema/index.ts'
import { fidelityPhotoOf } from './marketplaces.service.ts'

// Which image results the worker's facts measurer (jobs/facts-measurer.ts) measures next: image
// results of succeeded generations, finished within a recent window, that have no image_facts row
// yet. One is taken at a time with a claim (image_facts_claims) that lasts a lease, so several
// worker processes share the backlog instead of measuring the same file; a claim whose lease ran
// out (its process stopped, or its measurement failed and waits) can be taken again, up to a
// number of attempts.

/** A claimed result: its file, and the seller's photo its fidelity is measured against. */
export type ClaimedResult = {
  generationId: string
  asset: Pick<AssetRow, 'id' | 'storageKey'>
  originalAssetId: string | null
}

export type ClaimOptions = {
  /** Names the claim's holder (the worker's id). */
  claimedBy: string
  /** How long the claim holds: longer than a measurement takes on a loaded machine. */
  leaseMs: number
  /** Results finished longer ago than this are left to their first check. */
  windowMs: number
  /** Measurements one file may start; past them it is left to its first check. */
  maxAttempts: number
}

/**
 * Takes the oldest recent image result that has no facts and no live claim, or null when there
 * is none. Two processes that pick the same one race on the claim's key: one gets it, and the
 * other looks again.
 */
export async function claimUnmeasuredResult(db: Db, options: ClaimOptions): Promise<ClaimedResult | null> {
  const unmeasured = sql`
    from ${generations} g
    join ${assets} a on a.id = (g.result ->> 'assetId')::uuid
    where g.status = 'succeeded' and g.mode = 'image'
      and g.finished_at > ${new Date(Date.now() - options.windowMs).toISOString()}
      and not exists (select 1 from image_facts f where f.asset_id = a.id)
      and not exists (
        select 1 from image_facts_claims c
        where c.asset_id = a.id and (c.until > now() or c.attempts >= ${options.maxAttempts})
      )`
  // Losing a race costs one more look; a few are plenty (each loss means another process took one).
  for (let tries = 0; tries < 10; tries++) {
    const claimed = (await db.execute(sql`
      with candidate as (
        select a.id as asset_id, g.id as generation_id ${unmeasured}
        order by g.finished_at
        limit 1
      )
      insert into image_facts_claims (asset_id, generation_id, claimed_by, until, attempts)
      select asset_id, generation_id, ${options.claimedBy},
        now() + ${`${options.leaseMs} milliseconds`}::interval, 1
      from candidate
      on conflict (asset_id) do update
        set claimed_by = excluded.claimed_by, until = excluded.until,
          attempts = image_facts_claims.attempts + 1
        where image_facts_claims.until <= now() and image_facts_claims.attempts < ${options.maxAttempts}
      returning asset_id, generation_id
    `)) as unknown as { rows: { asset_id: string; generation_id: string }[] }
    const row = claimed.rows[0]
    if (row) return readClaimed(db, row.generation_id, row.asset_id)
    // Nothing claimed: nothing is left, or another process took the candidate first.
    const left = (await db.execute(sql`select 1 as one ${unmeasured} limit 1`)) as unknown as {
      rows: unknown[]
    }
    if (left.rows.length === 0) return null
  }
  return null
}

async function readClaimed(db: Db, generationId: string, assetId: string): Promise<ClaimedResult | null> {
  const [row] = await db
    .select({
      tool: generations.tool,
      inputAssetId: generations.inputAssetId,
      storageKey: assets.storageKey,
    })
    .from(generations)
    .innerJoin(assets, eq(assets.id, assetId))
    .where(eq(generations.id, generationId))
  if (!row) return null
  return {
    generationId,
    asset: { id: assetId, storageKey: row.storageKey },
    originalAssetId: fidelityPhotoOf(row),
  }
}

/** The facts are stored: the claim goes. */
export async function releaseClaim(db: Db, assetId: string): Promise<void> {
  await db.delete(imageFactsClaims).where(eq(imageFactsClaims.assetId, assetId))
}

/** The measurement failed: the claim stays until `retryMs` from now, when it may be tried again. */
export async function postponeClaim(db: Db, assetId: string, retryMs: number): Promise<void> {
  await db
    .update(imageFactsClaims)
    .set({ until: sql`now() + ${`${retryMs} milliseconds`}::interval` })
    .where(eq(imageFactsClaims.assetId, assetId))
}
