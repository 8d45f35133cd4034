import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WebhookDeliveryView } from '#shared/contracts/webhooks.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { DeliveryLog } from './delivery-log.tsx'

const fetchMock = stubFetchForEachTest()

const endpointId = '11111111-1111-4111-8111-111111111111'
const queued: WebhookDeliveryView = {
  id: '33333333-3333-4333-8333-333333333333',
  eventId: '44444444-4444-4444-8444-444444444444',
  eventType: 'generation.succeeded',
  status: 'pending',
  attempts: 0,
  createdAt: '2026-11-20T09:00:00.000Z',
  lastAttemptAt: null,
  nextAttemptAt: '2026-11-20T09:00:00.000Z',
  responseStatus: null,
  lastError: null,
  deliveredAt: null,
}
const delivered: WebhookDeliveryView = {
  ...queued,
  status: 'succeeded',
  attempts: 1,
  lastAttemptAt: '2026-11-20T09:00:01.000Z',
  responseStatus: 200,
  deliveredAt: '2026-11-20T09:00:01.000Z',
}

/** Answers the log's requests with these deliveries, one list per request, the last one after. */
function serveInTurn(...lists: WebhookDeliveryView[][]) {
  let asked = 0
  fetchMock.mockImplementation(async () =>
    json(200, { deliveries: lists[Math.min(asked++, lists.length - 1)] }),
  )
}

const logRequests = () =>
  fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/deliveries')).length

describe('DeliveryLog', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('looks again while a delivery is pending, and stops once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    serveInTurn([queued], [queued], [delivered])
    await renderWeb(<DeliveryLog endpointId={endpointId} version={0} onResend={async () => {}} canResend />)
    expect(await screen.findByText('Queued')).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(5000))
    await act(() => vi.advanceTimersByTimeAsync(5000))
    expect(await screen.findByText('Delivered')).toBeTruthy()
    expect(logRequests()).toBe(3)
    // Nothing is armed any more: the log is settled.
    expect(vi.getTimerCount()).toBe(0)
  })

  it('waits while the tab is hidden, and looks once it is shown again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    serveInTurn([queued], [delivered])
    await renderWeb(<DeliveryLog endpointId={endpointId} version={0} onResend={async () => {}} canResend />)
    expect(await screen.findByText('Queued')).toBeTruthy()
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true)
    await act(() => vi.advanceTimersByTimeAsync(15_000))
    expect(logRequests()).toBe(1)
    hidden.mockReturnValue(false)
    await act(() => vi.advanceTimersByTimeAsync(5000))
    expect(await screen.findByText('Delivered')).toBeTruthy()
    expect(logRequests()).toBe(2)
  })
})
