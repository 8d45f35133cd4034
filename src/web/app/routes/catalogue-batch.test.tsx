import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BatchRowView, BatchView } from '#shared/contracts/catalogue.ts'
import { enMessages } from '#shared/i18n/locales/en/index.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { assetView } from '#tests/support/web-views.ts'
import { CatalogueBatchPage } from './catalogue-batch.tsx'

const fetchMock = stubFetchForEachTest()

/** EventSource as the page uses it: the test sends named events and errors. */
class FakeEventSource {
  static opened: FakeEventSource[] = []
  readonly url: string
  readonly listeners = new EventTarget()
  onerror: (() => void) | null = null
  isClosed = false
  constructor(url: string) {
    this.url = url
    FakeEventSource.opened.push(this)
  }
  addEventListener(type: string, listener: EventListener) {
    this.listeners.addEventListener(type, listener)
  }
  close() {
    this.isClosed = true
  }
  emit(type: string, data: unknown) {
    this.listeners.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }))
  }
  fail() {
    this.onerror?.()
  }
}

beforeEach(() => {
  FakeEventSource.opened = []
  vi.stubGlobal('EventSource', FakeEventSource)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const photo = (id: string) => assetView(id, { mime: 'image/jpeg', width: 800, height: 800 })

function row(sku: string, state: BatchRowView['state'], overrides: Partial<BatchRowView> = {}): BatchRowView {
  return {
    id: `row-${sku}`,
    line: 2,
    sku,
    name: `Ürün ${sku}`,
    state,
    photo: photo(`photo-${sku}`),
    outputs: [],
    isCopyEdited: false,
    excludedResults: [],
    ...overrides,
  }
}

const running: BatchView = {
  batch: {
    id: 'batch-1',
    status: 'running',
    fileName: 'kış listesi.csv',
    rowCount: 3,
    productCount: 3,
    presetId: 'trendyol',
    createdAt: '2026-06-03T11:05:00.000Z',
    startedAt: '2026-06-03T11:06:00.000Z',
    finishedAt: null,
  },
  outputs: { studio: { prompt: 'marble countertop', aspectRatio: '1:1' }, seo: true },
  counts: { queued: 2, running: 1, done: 0, failed: 0, canceled: 0 },
  etaSeconds: null,
  rows: [row('A-1', 'running'), row('A-2', 'queued'), row('A-3', 'queued')],
}

const later: BatchView = {
  ...running,
  counts: { queued: 0, running: 1, done: 1, failed: 1, canceled: 0 },
  etaSeconds: 150,
  rows: [
    row('A-1', 'done', {
      outputs: [
        {
          generationId: 'g-1',
          tool: 'product',
          mode: 'image',
          status: 'succeeded',
          errorCode: null,
          thumbnail: photo('result-A-1'),
        },
      ],
    }),
    row('A-2', 'failed', {
      outputs: [
        {
          generationId: 'g-2',
          tool: 'product',
          mode: 'image',
          status: 'failed',
          errorCode: 'PROVIDER_REJECTED',
          thumbnail: null,
        },
      ],
    }),
    row('A-3', 'running'),
  ],
}

function renderBatch(locale: Locale = 'en') {
  return renderWeb(
    <Routes>
      <Route path="/app/catalogue/:id" element={<CatalogueBatchPage />} />
      <Route path="/app/catalogue" element={<p>Catalogue page</p>} />
    </Routes>,
    { route: '/app/catalogue/batch-1', locale },
  )
}

const count = (key: string) => screen.getByTestId(`count-${key}`).querySelector('dd')?.textContent

describe('CatalogueBatchPage', () => {
  it('shows the counts, then applies the live update from the batch events', async () => {
    // Once finished, the page also asks for the marketplace connections and the batch's publications.
    fetchMock.mockImplementation(async (input) =>
      String(input).startsWith('/api/catalogue/')
        ? json(200, running)
        : json(200, { integrations: [], publications: [] }),
    )
    await renderBatch()
    expect(await screen.findByRole('heading', { level: 1, name: 'kış listesi.csv' })).toBeTruthy()
    expect([count('queued'), count('running'), count('done'), count('failed')]).toEqual(['2', '1', '0', '0'])
    expect(screen.getByTestId('batch-eta').textContent).toBe('Working out the time left…')
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0')

    const source = FakeEventSource.opened[0]
    expect(source?.url).toBe('/api/catalogue/batches/batch-1/events')
    act(() => source?.emit('batch', later))

    expect([count('queued'), count('running'), count('done'), count('failed')]).toEqual(['0', '1', '1', '1'])
    expect(screen.getByText('2 of 3 products finished')).toBeTruthy()
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('67')
    expect(screen.getByTestId('batch-eta').textContent).toBe('About 3 min left')
    const failed = screen.getAllByTestId('batch-row')[1] as HTMLElement
    expect(within(failed).getByTestId('row-state').textContent).toBe('Failed')
    expect(within(failed).getByTestId('row-error').textContent).toBe(enMessages.errors.PROVIDER_REJECTED)
    const done = screen.getAllByTestId('batch-row')[0] as HTMLElement
    expect(done.querySelector('img')?.getAttribute('src')).toBe('/files/result-A-1.jpg')

    // Once the batch has finished, the stream is closed and the end is announced.
    act(() =>
      source?.emit('batch', {
        ...later,
        batch: { ...later.batch, status: 'finished', finishedAt: '2026-06-03T11:20:00.000Z' },
        counts: { queued: 0, running: 0, done: 2, failed: 1, canceled: 0 },
      }),
    )
    expect(source?.isClosed).toBe(true)
    expect(screen.getByTestId('batch-announcer').textContent).toBe('The batch has ended: 2 done, 1 failed.')
  })

  it('falls back to asking again when the event stream breaks', async () => {
    let answers = 0
    fetchMock.mockImplementation(async () => {
      answers += 1
      return json(200, answers === 1 ? running : later)
    })
    await renderBatch()
    await screen.findByTestId('batch-counts')
    act(() => FakeEventSource.opened[0]?.fail())
    await vi.waitFor(() => expect(count('done')).toBe('1'), { timeout: 5000 })
    expect(FakeEventSource.opened[0]?.isClosed).toBe(true)
    expect(String(fetchMock.mock.calls[1]?.[0])).toBe('/api/catalogue/batches/batch-1')
  })

  it.each([
    ['en', 'Nothing to download yet: no product is done.', 'Download ZIP'],
    ['tr', 'Henüz indirilecek bir şey yok: hiçbir ürün hazır değil.', "ZIP'i indir"],
  ] as const)(
    'keeps Download disabled, with its reason, while nothing is done (%s)',
    async (locale, reason, label) => {
      fetchMock.mockImplementation(async () => json(200, running))
      await renderBatch(locale)
      const download = await screen.findByRole<HTMLButtonElement>('button', { name: label })
      expect(download.disabled).toBe(true)
      expect(document.getElementById(download.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        reason,
      )

      // The stream opens in an effect after the first render: send only once it is listening.
      await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
      act(() => FakeEventSource.opened[0]?.emit('batch', later))
      const link = await screen.findByRole('link', { name: label })
      expect(link.getAttribute('href')).toBe(`/api/catalogue/batches/batch-1/export?lang=${locale}`)
      expect(link.getAttribute('download')).toBe('kış-listesi-vitrin.zip')
    },
  )

  it('retries failed rows, and cancels what has not started only after confirming', async () => {
    const calls: string[] = []
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input)
      if (init?.method === 'POST') calls.push(url)
      if (url.endsWith('/retry'))
        return json(200, { ...later, counts: { ...later.counts, failed: 0, queued: 1 } })
      if (url.endsWith('/cancel')) {
        return json(200, { ...later, counts: { queued: 0, running: 1, done: 1, failed: 0, canceled: 1 } })
      }
      return json(200, later)
    })
    const user = userEvent.setup()
    await renderBatch()
    const cancel = await screen.findByRole<HTMLButtonElement>('button', {
      name: 'Cancel what has not started',
    })
    expect(cancel.disabled).toBe(true)
    await user.click(screen.getByRole('button', { name: 'Retry failed rows' }))
    await vi.waitFor(() => expect(count('queued')).toBe('1'))
    expect(calls).toEqual(['/api/catalogue/batches/batch-1/retry'])

    await user.click(screen.getByRole('button', { name: 'Cancel what has not started' }))
    const dialog = screen.getByRole('dialog', { name: 'Cancel the products that have not started?' })
    expect(calls).toHaveLength(1)
    await user.click(within(dialog).getByRole('button', { name: 'Cancel them' }))
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(calls).toEqual(['/api/catalogue/batches/batch-1/retry', '/api/catalogue/batches/batch-1/cancel'])
    expect(count('canceled')).toBe('1')
  })

  it('offers to publish the batch to a marketplace once it has finished, not before', async () => {
    const finished: BatchView = {
      ...later,
      batch: { ...later.batch, status: 'finished', finishedAt: '2026-06-03T11:20:00.000Z' },
      counts: { queued: 0, running: 0, done: 2, failed: 1, canceled: 0 },
    }
    fetchMock.mockImplementation(async (input) =>
      String(input).startsWith('/api/catalogue/')
        ? json(200, running)
        : String(input) === '/api/integrations'
          ? json(200, {
              integrations: [
                {
                  marketplace: 'trendyol',
                  isConnected: false,
                  accountId: null,
                  secretMask: null,
                  verifiedAt: null,
                },
              ],
            })
          : json(200, { publications: [] }),
    )
    await renderBatch('tr')
    await screen.findByTestId('batch-counts')
    expect(screen.queryByTestId('catalogue-publish')).toBeNull()
    await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
    act(() => FakeEventSource.opened[0]?.emit('batch', finished))
    const section = await screen.findByRole('region', { name: 'Trendyol / Hepsiburada’da yayınla' })
    expect(within(section).getByRole('link', { name: 'Ayarlar → Entegrasyonlar' }).getAttribute('href')).toBe(
      '/settings?tab=integrations',
    )
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain(
      '/api/publications?batchId=batch-1',
    )
  })
})
