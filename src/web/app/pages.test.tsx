import { cleanup, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { appPages } from '#shared/app-pages.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { SessionProvider } from '#web/lib/session.tsx'
import { appPageComponents, appPageFirstReads } from './pages.tsx'

const fetchMock = stubFetchForEachTest()

describe('appPageFirstReads', () => {
  const listed = Object.entries(appPageFirstReads) as [keyof typeof appPageComponents, readonly string[]][]

  it.each(listed)('names only what the %s page asks for as it first renders', async (key, reads) => {
    // Every read answers as an empty failure: only which paths are asked matters here.
    fetchMock.mockImplementation(async () => json(503, {}))
    const page = appPageComponents[key]
    await page.preload()
    const path = appPages.find((p) => p.key === key)?.path ?? '/'
    await renderWeb(
      <SessionProvider>
        <page.Component />
      </SessionProvider>,
      { route: path },
    )
    const asked = () => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://x').pathname)
    await waitFor(() => {
      for (const read of reads) expect(asked()).toContain(read)
    })
    cleanup()
  })
})
