import { randomInt } from 'node:crypto'
import { and, asc, count, eq, gt, isNull, lt, min, or, sql } from 'drizzle-orm'
import type { Auth } from '#server/auth/auth.ts'
import { callAuth } from '#server/auth/auth-errors.ts'
import type { Db } from '#server/db/client.ts'
import { accessCodeRedemptions, accessCodes, users } from '#server/db/schema/index.ts'
import type { RequestUser } from '#server/http/context.ts'
import { presentUser } from '#server/http/session.ts'
import { type RateLimiter, type RateLimitRule, refuseIfLimited } from '#server/rate-limit/rate-limiter.ts'
import { accessCodeLength, accessCodeSchema } from '#shared/contracts/access.ts'
import type { SessionUser } from '#shared/contracts/auth.ts'
import { AppError } from '#shared/errors.ts'

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
  input: {
    code?: string
    source: AccessCodeRow['source']
    note?: string
    /** How many beta accounts it may make; unset means no cap. */
    maxRedemptions?: number
    /** When it stops working; unset means never. */
    expiresAt?: Date
  },
): Promise<AccessCodeRow> {
  const code = input.code ? normalizeAccessCode(input.code) : generateAccessCode()
  const [row] = await db
    .insert(accessCodes)
    .values({
      code,
      source: input.source,
      note: input.note ?? null,
      maxRedemptions: input.maxRedemptions ?? null,
      expiresAt: input.expiresAt ?? null,
    })
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

/**
 * A usable code nobody has redeemed yet (the oldest), for the start banner: until someone signs
 * in with it, the operator is shown it on every start.
 */
export async function unusedAccessCode(db: Db, now = new Date()): Promise<string | null> {
  const [row] = await db
    .select({ code: accessCodes.code })
    .from(accessCodes)
    .where(and(isUsable(now), eq(accessCodes.redemptionCount, 0)))
    .orderBy(asc(accessCodes.createdAt))
    .limit(1)
  return row?.code ?? null
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

/** The condition under which a code lets a new browser in: not revoked, not expired, under its cap. */
function isUsable(at: Date) {
  return and(
    isNull(accessCodes.revokedAt),
    or(isNull(accessCodes.expiresAt), gt(accessCodes.expiresAt, at)),
    or(isNull(accessCodes.maxRedemptions), lt(accessCodes.redemptionCount, accessCodes.maxRedemptions)),
  )
}

/** Whether a code exists, is not revoked or expired, and has redemptions left. */
export async function isAccessCodeValid(db: Db, code: string, at: Date = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ code: accessCodes.code })
    .from(accessCodes)
    .where(and(eq(accessCodes.code, code), isUsable(at)))
  return row !== undefined
}

/**
 * The window of the cap on new beta accounts (trials) per client address. The cap itself is a
 * setting (TRIALS_PER_DAY_PER_CLIENT, default 20): generous enough for a team behind one office
 * address, and raised for a demo stand; it stops one machine from minting trials in bulk.
 */
export const trialWindowSeconds = 24 * 60 * 60

export type RedeemDeps = {
  db: Db
  rateLimiter: RateLimiter
  auth: Auth
  now: () => Date
  /** New beta accounts one client address may make per trialWindowSeconds. */
  trialsPerClient: number
  /**
   * Starts the new account's beta trial inside the redeeming transaction (billing's startTrial,
   * given at composition): the account, the code's use and the trial are one.
   */
  startTrial: (tx: Db, userId: string, now: Date) => Promise<unknown>
}

/**
 * Checks a code. Only failed attempts count against the client's budget (accessCodeRateLimit):
 * each attempt is counted up front, so guesses sent together are all counted, and handed back
 * when the code is good. Throws ACCESS_CODE_INVALID or RATE_LIMITED.
 */
export async function checkAccessCode(
  deps: Pick<RedeemDeps, 'db' | 'rateLimiter' | 'now'>,
  raw: string,
  clientIp: string,
): Promise<string> {
  refuseIfLimited(await deps.rateLimiter.hit(accessCodeRateLimit, clientIp), accessCodeRateLimit.name)
  const code = normalizeAccessCode(raw)
  if (!(await isAccessCodeValid(deps.db, code, deps.now())))
    throw new AppError('ACCESS_CODE_INVALID', 'Unknown, revoked, expired or used-up access code')
  await deps.rateLimiter.refund(accessCodeRateLimit, clientIp)
  return code
}

/** Refuses a client past `limit` new beta accounts in the last day: RATE_LIMITED. */
async function refuseTooManyTrials(db: Db, clientIp: string, at: Date, limit: number): Promise<void> {
  const since = new Date(at.getTime() - trialWindowSeconds * 1000)
  const [recent] = await db
    .select({ n: count(), oldest: min(accessCodeRedemptions.createdAt) })
    .from(accessCodeRedemptions)
    .where(and(eq(accessCodeRedemptions.clientIp, clientIp), gt(accessCodeRedemptions.createdAt, since)))
  if (recent && recent.n >= limit) {
    const freesAt = (recent.oldest?.getTime() ?? at.getTime()) + trialWindowSeconds * 1000
    throw new AppError('RATE_LIMITED', 'Too many new beta accounts from this address', {
      retryAfterSeconds: Math.max(1, Math.ceil((freesAt - at.getTime()) / 1000)),
    })
  }
}

/**
 * POST /api/access: checks the code (checkAccessCode), then lets a new browser in with it. A
 * browser already inside (beta or account) keeps its user: a valid code changes nothing.
 *
 * For a new browser: the beta account is made first, then one transaction claims a redemption
 * of the code (a conditional UPDATE, so concurrent redemptions never pass the cap or the
 * expiry), records the redemption and starts the trial: all three are stored, or none. The
 * account comes first because the auth library writes it outside our transaction (on PGlite a
 * transaction holds the database, so a write from outside it would wait for it forever); when
 * the transaction fails, that account is deleted again (its session goes with it, and its
 * cookie is never sent). Throws ACCESS_CODE_INVALID (also when the code was used up or expired
 * meanwhile) or RATE_LIMITED (attempts per client, or deps.trialsPerClient).
 */
export async function redeemAccessCode(
  deps: RedeemDeps,
  input: { code: string; clientIp: string; headers: Headers; signedIn: RequestUser | null },
): Promise<{ user: SessionUser; isNew: boolean; headers: Headers }> {
  const code = await checkAccessCode(deps, input.code, input.clientIp)
  if (input.signedIn) return { user: presentUser(input.signedIn), isNew: false, headers: new Headers() }
  const at = deps.now()
  await refuseTooManyTrials(deps.db, input.clientIp, at, deps.trialsPerClient)
  const { headers, response } = await callAuth(() =>
    deps.auth.api.signInAnonymous({ headers: input.headers, returnHeaders: true }),
  )
  if (!response) throw new Error('beta sign-in returned no user')
  const userId = response.user.id
  try {
    await deps.db.transaction(async (tx) => {
      const claimed = await tx
        .update(accessCodes)
        .set({ redemptionCount: sql`${accessCodes.redemptionCount} + 1` })
        .where(and(eq(accessCodes.code, code), isUsable(at)))
        .returning({ code: accessCodes.code })
      if (claimed.length === 0) throw new AppError('ACCESS_CODE_INVALID', 'Access code used up or expired')
      await tx.insert(accessCodeRedemptions).values({ code, userId, clientIp: input.clientIp, createdAt: at })
      await deps.startTrial(tx as unknown as Db, userId, at)
    })
  } catch (error) {
    // The request fails with the first error. Should the delete fail too, the account left
    // behind has no trial and no redemption, and its cookie was never sent: nobody can use it.
    await deps.db
      .delete(users)
      .where(eq(users.id, userId))
      .catch(() => undefined)
    throw error
  }
  const user = presentUser({
    id: userId,
    email: response.user.email,
    isBeta: true,
    createdAt: response.user.createdAt,
  })
  return { user, isNew: true, headers }
}
