import { afterEach, beforeEach, type Mock, vi } from 'vitest'

/**
 * Replaces the global fetch with one mock for every test of the calling file: reset before each
 * test (to `answer`, when given) and the real fetch put back after it.
 */
export function stubFetchForEachTest(
  answer?: (...args: Parameters<typeof fetch>) => Promise<Response>,
): Mock<typeof fetch> {
  const fetchMock = vi.fn<typeof fetch>()
  beforeEach(() => {
    fetchMock.mockReset()
    if (answer) fetchMock.mockImplementation(answer)
    vi.stubGlobal('fetch', fetchMock)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  return fetchMock
}

/** A JSON response with this status, as the API sends it. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
