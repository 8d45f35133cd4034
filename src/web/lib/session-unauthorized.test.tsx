import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { SessionUser } from '#shared/contracts/auth.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { apiRequest } from './api-client.ts'
import { SessionProvider, useSession } from './session.tsx'

const fetchMock = stubFetchForEachTest()

const user: SessionUser = {
  id: 'u1',
  email: 'ada@example.com',
  isBeta: false,
  createdAt: '2026-06-01T00:00:00.000Z',
}

function Status() {
  return <p data-testid="session">{useSession().status}</p>
}

describe('a 401 from any API call', () => {
  it('has the session asked again, so a session ended elsewhere signs the user out', async () => {
    let isSignedIn = true
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/session'
        ? json(200, { user: isSignedIn ? user : null })
        : json(401, { error: { code: 'UNAUTHORIZED', message: 'Sign in required' } }),
    )
    const view = render(
      <SessionProvider>
        <Status />
      </SessionProvider>,
    )
    expect(await screen.findByText('signed-in')).toBeTruthy()

    // The password was changed in another browser.
    isSignedIn = false
    await act(async () => {
      await apiRequest('/api/usage').catch(() => undefined)
    })
    expect(await screen.findByText('signed-out')).toBeTruthy()
    const sessionCalls = fetchMock.mock.calls.filter(([input]) => String(input) === '/api/session')
    expect(sessionCalls).toHaveLength(2)

    // Once the provider is gone, a 401 asks nothing.
    view.unmount()
    await apiRequest('/api/usage').catch(() => undefined)
    await Promise.resolve()
    expect(fetchMock.mock.calls.filter(([input]) => String(input) === '/api/session')).toHaveLength(2)
  })
})
