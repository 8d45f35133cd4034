import { screen, within } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type {
  CreateWebhookEndpointResponse,
  WebhookDeliveriesResponse,
  WebhookEndpointsResponse,
  WebhookEndpointView,
} from '#shared/contracts/webhooks.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { WebhooksSection } from './webhooks-section.tsx'

const fetchMock = stubFetchForEachTest()

const endpoint: WebhookEndpointView = {
  id: '11111111-1111-4111-8111-111111111111',
  url: 'https://shop.example.com/hooks',
  events: ['generation.succeeded', 'batch.completed'],
  isEnabled: true,
  createdAt: '2026-11-01T10:00:00.000Z',
  disabledAt: null,
}
const secret = `whsec_${'a'.repeat(43)}`
const deliveries: WebhookDeliveriesResponse = {
  deliveries: [
    {
      id: '33333333-3333-4333-8333-333333333333',
      eventId: '44444444-4444-4444-8444-444444444444',
      eventType: 'generation.succeeded',
      status: 'pending',
      attempts: 2,
      createdAt: '2026-11-20T09:00:00.000Z',
      lastAttemptAt: '2026-11-20T09:01:00.000Z',
      nextAttemptAt: '2026-11-20T09:03:00.000Z',
      responseStatus: 500,
      lastError: 'HTTP_STATUS',
      deliveredAt: null,
    },
  ],
}

/** The section with the first endpoint's deliveries shown: its card and the first delivery's row. */
async function showFirstDelivery(user: UserEvent) {
  await renderWeb(<WebhooksSection />)
  const card = (await screen.findAllByTestId('webhook-endpoint'))[0] as HTMLElement
  await user.click(within(card).getByRole('button', { name: 'Show deliveries' }))
  const row = await within(card).findByTestId('webhook-delivery')
  return { card, row }
}

function serve(list: WebhookEndpointsResponse, created?: CreateWebhookEndpointResponse) {
  fetchMock.mockImplementation(async (input, init) => {
    const method = init?.method ?? 'GET'
    const path = String(input)
    if (method === 'GET' && path === '/api/webhooks') return json(200, list)
    if (method === 'POST' && path === '/api/webhooks' && created) return json(201, created)
    if (method === 'GET' && path.endsWith('/deliveries')) return json(200, deliveries)
    if (method === 'POST' && path.endsWith('/resend'))
      return json(202, { delivery: deliveries.deliveries[0] })
    if (method === 'POST' && path.endsWith('/test')) return json(202, { delivery: deliveries.deliveries[0] })
    if (method === 'GET' && path.endsWith('/secret')) return json(200, { secret })
    throw new Error(`unexpected ${method} ${path}`)
  })
}

const requests = (method: string, suffix: string) =>
  fetchMock.mock.calls.filter(
    ([input, init]) => (init?.method ?? 'GET') === method && String(input).endsWith(suffix),
  )

describe('WebhooksSection', () => {
  it('adds an endpoint with the chosen events and shows its secret with a copy button', async () => {
    const made: CreateWebhookEndpointResponse = {
      endpoint: { ...endpoint, id: '22222222-2222-4222-8222-222222222222', events: ['batch.completed'] },
      secret,
    }
    serve({ hasApiAccess: true, maxEndpoints: 10, endpoints: [] }, made)
    const user = userEvent.setup()
    await renderWeb(<WebhooksSection />)
    expect(await screen.findByRole('heading', { level: 3, name: 'Webhooks' })).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a webhook endpoint' })
    await user.type(within(dialog).getByLabelText('Endpoint URL'), endpoint.url)
    await user.click(within(dialog).getByRole('checkbox', { name: /Generation succeeded/ }))
    await user.click(within(dialog).getByRole('checkbox', { name: /Generation failed/ }))
    // Every event is offered, the marketplaces' outcomes too: leave one of those on.
    await user.click(
      within(dialog).getByRole('checkbox', { name: /Product rejected by a marketplace or not sent/ }),
    )
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    const [, init] = requests('POST', '/api/webhooks')[0] ?? []
    expect(JSON.parse(String(init?.body))).toEqual({
      url: endpoint.url,
      events: ['batch.completed', 'publication.succeeded'],
    })
    const secretDialog = await screen.findByRole('dialog', { name: "Your endpoint's signing secret" })
    expect(within(secretDialog).getByTestId('new-webhook-secret').textContent).toBe(secret)
    expect(within(secretDialog).getByRole('button', { name: /Copy/ })).toBeTruthy()
  })

  it('asks for at least one event before sending anything', async () => {
    serve({ hasApiAccess: true, maxEndpoints: 10, endpoints: [] })
    const user = userEvent.setup()
    await renderWeb(<WebhooksSection />)
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }))
    const dialog = await screen.findByRole('dialog')
    await user.type(within(dialog).getByLabelText('Endpoint URL'), endpoint.url)
    for (const checkbox of within(dialog).getAllByRole('checkbox')) await user.click(checkbox)
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(dialog).findByText('Choose at least one event.')).toBeTruthy()
    expect(requests('POST', '/api/webhooks')).toHaveLength(0)
  })

  it('shows the delivery log with status codes and resends; sends a test event', async () => {
    serve({ hasApiAccess: true, maxEndpoints: 10, endpoints: [endpoint] })
    const user = userEvent.setup()
    const { card, row } = await showFirstDelivery(user)
    expect(within(row).getByText('Retrying')).toBeTruthy()
    expect(within(row).getByText('500')).toBeTruthy()
    expect(within(row).getByText('Your server answered with an error status.')).toBeTruthy()
    await user.click(within(row).getByRole('button', { name: /^Resend/ }))
    expect(await screen.findByText('The event was queued again.')).toBeTruthy()
    expect(requests('POST', '/resend')).toHaveLength(1)
    await user.click(within(card).getByRole('button', { name: 'Send test event' }))
    expect(await screen.findByText(`A test event was queued for ${endpoint.url}.`)).toBeTruthy()
    await user.click(within(card).getByRole('button', { name: 'Show secret' }))
    expect(await within(card).findByText(secret)).toBeTruthy()
  })

  it('calls a delivery not tried yet queued, not retrying', async () => {
    serve({ hasApiAccess: true, maxEndpoints: 10, endpoints: [endpoint] })
    const [first] = deliveries.deliveries
    if (!first) throw new Error('no delivery')
    const untried = { ...first, attempts: 0, lastAttemptAt: null, responseStatus: null, lastError: null }
    const served = fetchMock.getMockImplementation()
    fetchMock.mockImplementation(async (input, init) =>
      String(input).endsWith('/deliveries')
        ? json(200, { deliveries: [untried] })
        : (served as NonNullable<typeof served>)(input, init),
    )
    const user = userEvent.setup()
    const { row } = await showFirstDelivery(user)
    expect(within(row).getByText('Queued')).toBeTruthy()
    expect(within(row).queryByText('Retrying')).toBeNull()
    expect(within(row).getByText('No answer')).toBeTruthy()
  })

  it('shows other plans what Pro gives, without an Add button', async () => {
    serve({ hasApiAccess: false, maxEndpoints: 10, endpoints: [] })
    await renderWeb(<WebhooksSection />)
    expect(await screen.findByText('Webhooks come with the Pro plan')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull()
  })

  it('speaks Turkish', async () => {
    serve({ hasApiAccess: true, maxEndpoints: 10, endpoints: [endpoint] })
    await renderWeb(<WebhooksSection />, { locale: 'tr' })
    expect(await screen.findByRole('heading', { level: 3, name: "Webhook'lar" })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Test olayı gönder' })).toBeTruthy()
  })
})
