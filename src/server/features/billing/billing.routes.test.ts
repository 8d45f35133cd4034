import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { subscriptions, users } from '#server/db/schema/index.ts'
import type { BillingResponse } from '#shared/contracts/billing.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { setPlanByOperator } from './billing-operator.service.ts'

describe('manual billing in production', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ NODE_ENV: 'production', PUBLIC_URL: 'https://vitrin.test' })
  })
  afterAll(async () => {
    await server.close()
  })

  it('lets no user choose, switch or cancel a plan, and tells the web app so', async () => {
    const client = await signedInClient(server, null)
    const view = (await (await client.request('/api/billing')).json()) as BillingResponse
    expect(view).toMatchObject({ provider: 'manual', canChangePlan: false, subscription: null })

    const chosen = await client.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect(chosen.status).toBe(403)
    expect(((await chosen.json()) as ErrorBody).error.code).toBe('BILLING_MANAGED_BY_OPERATOR')
    const canceled = await client.request('/api/billing/subscription', { method: 'DELETE' })
    expect(canceled.status).toBe(403)
    expect(await server.database.db.select().from(subscriptions)).toHaveLength(0)
  })

  it('shows the plan the operator set, which the user still cannot change', async () => {
    const client = await signedInClient(server, null)
    const session = (await (await client.request('/api/session')).json()) as { user: { id: string } }
    const [user] = await server.database.db.select().from(users).where(eq(users.id, session.user.id))
    const set = await setPlanByOperator(
      server.database.db,
      (user?.email ?? '').toUpperCase(),
      'pro',
      new Date(),
    )
    expect(set).toMatchObject({ status: 'set', userId: session.user.id })

    const view = (await (await client.request('/api/billing')).json()) as BillingResponse
    expect(view.subscription).toMatchObject({ planId: 'pro', status: 'active', isTrial: false })
    expect((await client.request('/api/billing/subscription', { json: { planId: 'starter' } })).status).toBe(
      403,
    )
    expect((await client.request('/api/usage')).status).toBe(200)

    expect(await setPlanByOperator(server.database.db, session.user.id, null, new Date())).toMatchObject({
      status: 'removed',
      hadPlan: true,
    })
    const after = (await (await client.request('/api/billing')).json()) as BillingResponse
    expect(after.subscription?.status).toBe('canceled')
    expect(await setPlanByOperator(server.database.db, 'nobody@example.com', 'pro', new Date())).toEqual({
      status: 'no-such-user',
    })
  })
})

describe('manual billing outside production', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('lets users choose their own plan', async () => {
    const client = await signedInClient(server, null)
    const chosen = await client.request('/api/billing/subscription', { json: { planId: 'starter' } })
    expect(chosen.status).toBe(200)
    expect((await chosen.json()) as BillingResponse).toMatchObject({
      canChangePlan: true,
      subscription: { planId: 'starter', status: 'active' },
    })
  })
})
