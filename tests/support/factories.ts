import { randomUUID } from 'node:crypto'
import type { Db } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import { activatePlan } from '#server/features/billing/subscription.service.ts'
import type { PlanId } from '#shared/plans.ts'

/** A user row straight in the database (no password), for service-level tests. */
export async function createUser(
  db: Db,
  overrides: { email?: string; isBeta?: boolean } = {},
): Promise<string> {
  const id = randomUUID()
  await db.insert(users).values({
    id,
    name: 'Test',
    email: overrides.email ?? `user-${id}@example.com`,
    isBeta: overrides.isBeta ?? false,
  })
  return id
}

/** A user with an active plan from `now`. */
export async function createSubscribedUser(db: Db, planId: PlanId, now: Date): Promise<string> {
  const userId = await createUser(db)
  await activatePlan(db, { userId, planId, provider: 'manual', now })
  return userId
}

let ipCounter = 0
/** A distinct client address per call, so per-client rate limits do not couple tests. */
export function nextClientIp(): string {
  ipCounter += 1
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}
