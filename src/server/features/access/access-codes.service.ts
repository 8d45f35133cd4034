import { randomInt } from 'node:crypto'
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm'
import { accessCodeLength, accessCodeSchema } from '../../../shared/contracts/access.ts'
import { AppError } from '../../../shared/errors.ts'
import type { Db } from '../../db/client.ts'
import { accessCodeRedemptions, accessCodes } from '../../db/schema/index.ts'
import type { RateLimiter, RateLimitRule } from '../../rate-limit/rate-limiter.ts'

/** Ten tries per client per quarter hour: plenty for typos, hopeless for guessing 36^6 codes. */
export const accessCodeRateLimit: RateLimitRule = { name: 'access-code', limit: 10, windowSeconds: 15 * 60 }

// No 0/O or 1/I, so a code read aloud or off a screen is typed right.
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

export function generateAccessCode(): string {
  let code = ''
  for (let i = 0; i < accessCodeLength; i++) code += alphabet[randomInt(alphabet.length)]
  return code
}

/** Upper-cases and checks a code; throws ACCESS_CODE_INVALID for anything that is not one. */
export function normalizeAccessCode(raw: string): string {
  const parsed = accessCodeSchema.safeParse(raw)
  if (!parsed.success) throw new AppError('ACCESS_CODE_INVALID', 'Not an access code')
  return parsed.data
}

export type AccessCodeRow = typeof accessCodes.$inferSelect

export async function createAccessCode(
  db: Db,
  input: { code?: string; source: AccessCodeRow['source']; note?: string },
): Promise<AccessCodeRow> {
  const code = input.code ? normalizeAccessCode(input.code) : generateAccessCode()
  const [row] = await db
    .insert(accessCodes)
    .values({ code, source: input.source, note: input.note ?? null })
    .onConflictDoNothing()
    .returning()
  if (row) return row
  const [existing] = await db.select().from(accessCodes).where(eq(accessCodes.code, code))
  if (!existing) throw new Error('access code insert returned no row')
  return existing
}

/** Makes sure every code in ACCESS_CODES exists (a code revoked by hand stays revoked). */
export async function syncConfiguredCodes(db: Db, codes: string[]): Promise<void> {
  for (const code of codes) await createAccessCode(db, { code, source: 'env' })
}

/** On a first start with no code at all, makes one so the app can be entered; returns it. */
export async function ensureSomeAccessCode(db: Db): Promise<string | null> {
  const [row] = await db.select({ n: count() }).from(accessCodes)
  if ((row?.n ?? 0) > 0) return null
  return (await createAccessCode(db, { source: 'bootstrap', note: 'created on first start' })).code
}

export async function listAccessCodes(db: Db): Promise<AccessCodeRow[]> {
  return db.select().from(accessCodes).orderBy(asc(accessCodes.createdAt))
}

export async function revokeAccessCode(db: Db, code: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(accessCodes)
    .set({ revokedAt: now })
    .where(and(eq(accessCodes.code, normalizeAccessCode(code)), isNull(accessCodes.revokedAt)))
    .returning({ code: accessCodes.code })
  return rows.length > 0
}

/** Whether a code exists and is not revoked. */
export async function isAccessCodeValid(db: Db, code: string): Promise<boolean> {
  const [row] = await db
    .select({ code: accessCodes.code })
    .from(accessCodes)
    .where(and(eq(accessCodes.code, code), isNull(accessCodes.revokedAt)))
  return row !== undefined
}

/** Records that a code let a new beta account in. */
export async function recordRedemption(
  db: Db,
  input: { code: string; userId: string; clientIp: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(accessCodeRedemptions).values(input)
    await tx
      .update(accessCodes)
      .set({ redemptionCount: sql`${accessCodes.redemptionCount} + 1` })
      .where(eq(accessCodes.code, input.code))
  })
}

export type RedeemDeps = { db: Db; rateLimiter: RateLimiter }

/** Checks a code (rate-limited per client); throws ACCESS_CODE_INVALID or RATE_LIMITED. */
export async function checkAccessCode(deps: RedeemDeps, raw: string, clientIp: string): Promise<string> {
  await deps.rateLimiter.consume(accessCodeRateLimit, clientIp)
  const code = normalizeAccessCode(raw)
  if (!(await isAccessCodeValid(deps.db, code)))
    throw new AppError('ACCESS_CODE_INVALID', 'Unknown or revoked access code')
  return code
}
