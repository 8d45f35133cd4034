import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { ApiError, apiRequest, primeGet, setUnauthorizedHandler } from './api-client.ts'

const fetchMock = stubFetchForEachTest()

const unauthorized = () => json(401, { error: { code: 'UNAUTHORIZED', message: 'Sign in required' } })

afterEach(() => {
  setUnauthorizedHandler(null)
})

describe('apiRequest on 401', () => {
  it('throws the error and runs the unauthorized handler once for a burst of 401s', async () => {
    fetchMock.mockImplementation(async () => unauthorized())
    let finishRefresh: () => void = () => undefined
    const handler = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finishRefresh = resolve
        }),
    )
    setUnauthorizedHandler(handler)

    const answers = await Promise.allSettled([apiRequest('/api/usage'), apiRequest('/api/settings')])
    for (const answer of answers) {
      expect(answer.status).toBe('rejected')
      const reason = (answer as PromiseRejectedResult).reason as ApiError
      expect(reason).toBeInstanceOf(ApiError)
      expect(reason.code).toBe('UNAUTHORIZED')
    }
    await vi.waitFor(() => expect(handler).toHaveBeenCalledTimes(1))

    // Once the refresh has finished, a later 401 runs it again.
    finishRefresh()
    await vi.waitFor(async () => {
      await apiRequest('/api/billing').catch(() => undefined)
      expect(handler).toHaveBeenCalledTimes(2)
    })
    // Let the second refresh finish too, so the next test starts with none under way.
    finishRefresh()
    await vi.waitFor(async () => {
      handler.mockClear()
      await apiRequest('/api/billing').catch(() => undefined)
      expect(handler).toHaveBeenCalledTimes(1)
    })
    finishRefresh()
  })

  it('leaves other refusals alone, a wrong password included', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    fetchMock.mockImplementation(async () =>
      json(401, { error: { code: 'AUTH_INVALID_CREDENTIALS', message: 'Wrong email or password' } }),
    )
    await expect(apiRequest('/api/auth/sign-in', { body: {} })).rejects.toMatchObject({
      code: 'AUTH_INVALID_CREDENTIALS',
    })
    fetchMock.mockImplementation(async () => json(404, { error: { code: 'NOT_FOUND', message: 'x' } }))
    await expect(apiRequest('/api/generations/x')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // Give a wrongly started handler the chance to run before checking it did not.
    await Promise.resolve()
    await Promise.resolve()
    expect(handler).not.toHaveBeenCalled()
  })

  it('throws as before when no handler is set', async () => {
    fetchMock.mockImplementation(async () => unauthorized())
    await expect(apiRequest('/api/usage')).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
  })
})

describe('apiRequest language', () => {
  afterEach(() => {
    document.documentElement.lang = ''
  })

  it('sends the page language, so what the server writes for the request is in it', async () => {
    fetchMock.mockImplementation(async () => json(200, { ok: true }))
    document.documentElement.lang = 'tr'
    await apiRequest('/api/usage')
    document.documentElement.lang = 'en'
    await apiRequest('/api/usage', { method: 'POST', body: { a: 1 } })
    const sent = fetchMock.mock.calls.map(
      ([, init]) => (init?.headers as Record<string, string> | undefined)?.['x-vitrin-locale'],
    )
    expect(sent).toEqual(['tr', 'en'])
  })
})

describe('primeGet', () => {
  it('hands its answer to the first read of the path, and later reads ask again', async () => {
    fetchMock.mockImplementation(async () => json(200, { n: fetchMock.mock.calls.length }))
    primeGet('/api/usage')
    primeGet('/api/usage')
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(await apiRequest('/api/usage')).toEqual({ n: 1 })
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(await apiRequest('/api/usage')).toEqual({ n: 2 })
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('is dropped by any write, which may change what it would say', async () => {
    fetchMock.mockImplementation(async () => json(200, { n: fetchMock.mock.calls.length }))
    primeGet('/api/usage')
    await apiRequest('/api/auth/sign-in', { body: {} })
    expect(await apiRequest('/api/usage')).toEqual({ n: 3 })
  })

  it('is dropped when it waited longer than 10 s for its reader', async () => {
    fetchMock.mockImplementation(async () => json(200, { n: fetchMock.mock.calls.length }))
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000)
    primeGet('/api/settings')
    now.mockReturnValue(11_001)
    expect(await apiRequest('/api/settings')).toEqual({ n: 2 })
    now.mockRestore()
  })

  it('treats a primed 401 like any other: the error and the unauthorized handler', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    fetchMock.mockImplementation(async () => unauthorized())
    primeGet('/api/session')
    await expect(apiRequest('/api/session')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect(fetchMock).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(handler).toHaveBeenCalledTimes(1))
  })

  it('falls back to asking again when the primed download failed', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('offline'))
    fetchMock.mockImplementation(async () => json(200, { ok: true }))
    primeGet('/api/billing')
    expect(await apiRequest('/api/billing')).toEqual({ ok: true })
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })
})
