import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { usageView } from '#tests/support/web-views.ts'
import { CataloguePage } from './catalogue.tsx'

const fetchMock = stubFetchForEachTest()

/**
 * XMLHttpRequest as the upload uses it: records what was sent, reports the upload's progress
 * and answers with `answer` (set per test) on the next turn of the event loop.
 */
class FakeXhr {
  static sent: FakeXhr[] = []
  /** The answer for each address; anything else is a 404. */
  static answers: Record<string, { status: number; body: unknown }> = {}
  readonly upload = new EventTarget()
  readonly events = new EventTarget()
  method = ''
  url = ''
  body: FormData | null = null
  status = 0
  statusText = ''
  responseText = ''
  withCredentials = false
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader() {}
  addEventListener(type: string, listener: EventListener) {
    this.events.addEventListener(type, listener)
  }
  abort() {
    this.events.dispatchEvent(new Event('abort'))
  }
  send(body: FormData) {
    this.body = body
    FakeXhr.sent.push(this)
    const { status, body: answer } = FakeXhr.answers[this.url] ?? { status: 404, body: {} }
    setTimeout(() => {
      this.upload.dispatchEvent(
        Object.assign(new Event('progress'), { loaded: 10, total: 10, lengthComputable: true }),
      )
      this.status = status
      this.responseText = JSON.stringify(answer)
      this.events.dispatchEvent(new Event('load'))
    }, 0)
  }
}

beforeEach(() => {
  FakeXhr.sent = []
  FakeXhr.answers = {}
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const batch = {
  id: 'batch-1',
  status: 'draft' as const,
  fileName: 'ürünler.csv',
  rowCount: 5,
  productCount: 3,
  presetId: null,
  createdAt: '2026-06-03T11:05:00.000Z',
  startedAt: null,
  finishedAt: null,
}

const importView: CatalogueImportView = {
  batch,
  headers: ['Stok Kodu', 'Ürün Adı', 'Marka', 'Görsel 1'],
  mapping: { sku: 0, name: 1, image1: 3 },
  sampleRows: [
    { line: 2, cells: ['KUPA-1', 'Mavi kupa', 'Vitrin', 'kupa-mavi.jpg'] },
    { line: 3, cells: ['KUPA-2', 'Kırmızı kupa', 'Vitrin', 'kupa-kirmizi.jpg'] },
  ],
  problems: [
    { line: 4, code: 'nameEmpty', field: 'name', column: 1 },
    { line: 6, code: 'skuDuplicate', field: 'sku', column: 0, value: 'KUPA-1', otherLines: [2] },
  ],
  zipPhotoCount: null,
  photosChecked: false,
  needsZip: false,
}

/** The same list once its photos were checked: a row whose photo was not in the ZIP is out too. */
const checkedView: CatalogueImportView = {
  ...importView,
  batch: { ...batch, rowCount: 6, productCount: 3 },
  problems: [
    ...importView.problems,
    { line: 3, code: 'photoNotInZip', field: 'image1', column: 3, value: 'kupa-kirmizi.jpg' },
  ],
  zipPhotoCount: 12,
  photosChecked: true,
}

const usage = usageView({ images: { used: 48, quota: 50 } })

/** The batch as its start answers: running, with `queued` rows waiting. */
function startedBatch(queued: number) {
  return {
    batch: { ...batch, status: 'running', startedAt: batch.createdAt },
    outputs: null,
    counts: { queued, running: 0, done: 0, failed: 0, canceled: 0 },
    etaSeconds: null,
    rows: [],
  }
}
const settings = { byoApiEnabled: false, falKey: { isSet: false } }

type Handler = (url: string, init: RequestInit | undefined) => Response | undefined

/** Answers the page's loads, and anything else through `handle`. */
function answer(handle: Handler = () => undefined) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input)
    const handled = handle(url, init)
    if (handled) return handled
    if (url === '/api/catalogue/batches') return json(200, { batches: [] })
    if (url === '/api/usage') return json(200, usage)
    if (url === '/api/settings') return json(200, settings)
    return json(404, { error: { code: 'NOT_FOUND', message: 'not found' } })
  })
}

function renderPage(locale: Locale = 'en', route = '/app/catalogue') {
  return renderWeb(
    <Routes>
      <Route path="/app/catalogue" element={<CataloguePage />} />
      <Route path="/app/catalogue/:id" element={<p>Batch page</p>} />
      <Route path="/billing" element={<p>Billing page</p>} />
    </Routes>,
    { route, locale },
  )
}

/** Chooses a list and uploads it; the fake server answers with `view`. */
async function importList(
  user: ReturnType<typeof userEvent.setup>,
  view: CatalogueImportView,
  locale: Locale = 'en',
) {
  FakeXhr.answers['/api/catalogue/imports'] = { status: 201, body: view }
  const list = new File(['Stok Kodu;Ürün Adı\n'], 'ürünler.csv', { type: 'text/csv' })
  await user.upload(screen.getByTestId('list-input'), list)
  await user.click(
    screen.getByRole('button', { name: locale === 'en' ? 'Upload and check' : 'Yükle ve kontrol et' }),
  )
  await screen.findByRole('heading', {
    name: new RegExp(locale === 'en' ? 'Match the columns' : 'Sütunları eşleştirin'),
  })
}

/** From the columns through the photo check (image links) to the outputs step. */
async function goToOutputs(user: ReturnType<typeof userEvent.setup>) {
  FakeXhr.answers['/api/catalogue/batches/batch-1/photos'] = { status: 200, body: checkedView }
  await user.click(screen.getByRole('button', { name: 'Continue to the photos' }))
  await user.click(await screen.findByRole('button', { name: 'Check the image links' }))
  await user.click(await screen.findByRole('button', { name: 'Continue without the rows with problems' }))
  await screen.findByRole('heading', { name: /Choose what to make/ })
}

function requestsTo(path: string, method: string) {
  return fetchMock.mock.calls.filter(
    ([input, init]) => String(input) === path && (init?.method ?? 'GET') === method,
  )
}

describe('CataloguePage', () => {
  it('goes on with a draft from its page: at its columns, or at its outputs once its photos are checked', async () => {
    answer((url) => (url === '/api/catalogue/batches/batch-1/import' ? json(200, importView) : undefined))
    const view = await renderPage('en', '/app/catalogue?draft=batch-1')
    await screen.findByRole('heading', { name: /Match the columns/ })
    expect(screen.getByText('ürünler.csv', { selector: 'span' })).toBeTruthy()
    view.unmount()

    answer((url) => (url === '/api/catalogue/batches/batch-1/import' ? json(200, checkedView) : undefined))
    await renderPage('en', '/app/catalogue?draft=batch-1')
    await screen.findByRole('heading', { name: /Choose what to make/ })
  })

  it('says so when a draft cannot be opened, and offers the file step', async () => {
    answer()
    await renderPage('en', '/app/catalogue?draft=gone')
    expect((await screen.findByRole('alert')).textContent).toContain('could not be opened')
    expect(screen.getByTestId('list-input')).toBeTruthy()
  })

  it('lists past imports with their state and product count, each leading to its page', async () => {
    answer((url) =>
      url === '/api/catalogue/batches'
        ? json(200, {
            batches: [
              { ...batch, id: 'b-2', status: 'running', fileName: 'yaz.xlsx', productCount: 120 },
              { ...batch, status: 'finished', productCount: 1, finishedAt: '2026-06-03T12:00:00.000Z' },
            ],
          })
        : undefined,
    )
    const user = userEvent.setup()
    await renderPage()
    const list = await screen.findByTestId('batch-list')
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[0]?.textContent).toContain('120 products')
    expect(within(items[0] as HTMLElement).getByTestId('batch-status').textContent).toBe('Running')
    expect(items[1]?.textContent).toContain('1 product')
    expect(within(items[1] as HTMLElement).getByTestId('batch-status').textContent).toBe('Finished')
    await user.click(within(list).getByRole('link', { name: 'yaz.xlsx' }))
    expect(screen.getByText('Batch page')).toBeTruthy()
  })

  it('says when there are no imports yet', async () => {
    answer()
    await renderPage()
    expect(await screen.findByText('No imports yet')).toBeTruthy()
  })

  it('refuses a list over the size limit in the browser, before sending anything', async () => {
    answer()
    const user = userEvent.setup()
    await renderPage()
    const big = new File(['x'], 'big.csv', { type: 'text/csv' })
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 })
    await user.upload(screen.getByTestId('list-input'), big)
    expect(
      screen.getByText('This product list is larger than 10MB. Split it into smaller lists.'),
    ).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Upload and check' }))
    expect(FakeXhr.sent).toHaveLength(0)
    expect(document.activeElement).toBe(screen.getByTestId('list-input'))
  })

  it('uploads the list, sends a changed mapping, then the photos ZIP, and shows each new preview', async () => {
    const updated: CatalogueImportView = {
      ...importView,
      mapping: { ...importView.mapping, brand: 2 },
      batch: { ...batch, productCount: 4, rowCount: 5 },
      problems: [{ line: 4, code: 'nameEmpty', field: 'name', column: 1 }],
      needsZip: true,
    }
    answer((url, init) =>
      url === '/api/catalogue/batches/batch-1/mapping' && init?.method === 'PUT'
        ? json(200, updated)
        : undefined,
    )
    FakeXhr.answers['/api/catalogue/batches/batch-1/photos'] = {
      status: 200,
      body: { ...checkedView, mapping: updated.mapping },
    }
    const user = userEvent.setup()
    await renderPage()
    await user.upload(
      screen.getByTestId('photos-input'),
      new File(['PK'], 'fotograflar.zip', { type: 'application/zip' }),
    )
    await importList(user, importView)

    // The list goes alone: the photos are checked under the confirmed columns.
    const sent = FakeXhr.sent[0]
    expect(sent?.method).toBe('POST')
    expect(sent?.url).toBe('/api/catalogue/imports')
    expect((sent?.body?.get('list') as File | undefined)?.name).toBe('ürünler.csv')
    expect(sent?.body?.get('photos')).toBeNull()

    // The server's suggestion is where the selects start; required fields say so.
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: /^SKU/ }).value).toBe('0')
    expect(screen.getByRole('combobox', { name: /^SKU/ }).getAttribute('aria-required')).toBe('true')
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Brand' }).value).toBe('')
    expect(screen.getByTestId('preview-counts').textContent).toContain('3 products ready')
    expect(screen.getByTestId('preview-counts').textContent).toContain('2 rows with problems')

    await user.selectOptions(screen.getByRole('combobox', { name: 'Brand' }), 'Marka')
    await vi.waitFor(() =>
      expect(requestsTo('/api/catalogue/batches/batch-1/mapping', 'PUT')).toHaveLength(1),
    )
    const [, init] = requestsTo('/api/catalogue/batches/batch-1/mapping', 'PUT')[0] ?? []
    expect(JSON.parse(String(init?.body))).toEqual({ mapping: { sku: 0, name: 1, image1: 3, brand: 2 } })
    await vi.waitFor(() =>
      expect(screen.getByTestId('preview-counts').textContent).toContain('4 products ready'),
    )
    expect(screen.getAllByTestId('problem')).toHaveLength(1)
    // The sample table now has the brand column.
    expect(screen.getByRole('columnheader', { name: /Brand/ })).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'Continue to the photos' }))
    await screen.findByRole('heading', { name: /Check the photos/ })
    expect(screen.getByText('Chosen: fotograflar.zip. You can choose another.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Upload photos and check' }))
    await vi.waitFor(() => expect(screen.getAllByTestId('problem')).toHaveLength(3))
    const photos = FakeXhr.sent[1]
    expect(photos?.url).toBe('/api/catalogue/batches/batch-1/photos')
    expect((photos?.body?.get('photos') as File | undefined)?.name).toBe('fotograflar.zip')
    expect(screen.getByTestId('preview-counts').textContent).toContain('12 photos in the ZIP')
    expect(screen.getAllByTestId('problem')[2]?.textContent).toBe(
      'Line 3 · Photo 1: The photo is not in the ZIP.kupa-kirmizi.jpg',
    )
  })

  it('asks for the ZIP a list names before checking its photos, and refuses one it cannot read', async () => {
    answer()
    const user = userEvent.setup()
    await renderPage()
    await importList(user, { ...importView, needsZip: true })
    await user.click(screen.getByRole('button', { name: 'Continue to the photos' }))
    await screen.findByRole('heading', { name: /Check the photos/ })
    const input = screen.getByTestId('photos-step-input')

    await user.click(screen.getByRole('button', { name: 'Upload photos and check' }))
    expect(screen.getByText('Choose the ZIP with the photos named in the list.')).toBeTruthy()
    expect(input.getAttribute('aria-invalid')).toBe('true')
    await vi.waitFor(() => expect(document.activeElement).toBe(input))

    await user.upload(input, new File([], 'bos.zip', { type: 'application/zip' }))
    expect(
      screen.getByText('This is not a ZIP file we can read. Put the photos in a ZIP again and try again.'),
    ).toBeTruthy()
    expect(screen.queryByText('Choose the ZIP with the photos named in the list.')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Upload photos and check' }))
    // Only the list went up.
    expect(FakeXhr.sent).toHaveLength(1)
  })

  it('cannot go on without a column for a required field, and says why', async () => {
    answer((url, init) =>
      url === '/api/catalogue/batches/batch-1/mapping' && init?.method === 'PUT'
        ? json(200, { ...importView, mapping: { name: 1, image1: 3 } })
        : undefined,
    )
    const user = userEvent.setup()
    await renderPage()
    await importList(user, importView)
    await user.selectOptions(screen.getByRole('combobox', { name: /^SKU/ }), 'Not used')
    const next = screen.getByTestId('mapping-continue')
    await vi.waitFor(() => expect(next.getAttribute('aria-describedby')).toBeTruthy())
    expect((next as HTMLButtonElement).disabled).toBe(true)
    const reason = document.getElementById(next.getAttribute('aria-describedby') ?? '')
    expect(reason?.textContent).toBe('Choose a column for: SKU.')
  })

  it.each([
    [
      'en',
      [
        'Line 4 · Product name: The product name is empty.',
        'Line 6 · SKU: Another row has the same SKU. (other lines: 2)KUPA-1',
      ],
    ],
    [
      'tr',
      [
        '4. satır · Ürün adı: Ürün adı boş.',
        '6. satır · Stok kodu: Aynı stok kodu başka bir satırda da var. (diğer satırlar: 2)KUPA-1',
      ],
    ],
  ] as const)('lists every problem with its line and reason in %s', async (locale, expected) => {
    answer()
    const user = userEvent.setup()
    await renderPage(locale)
    await importList(user, importView, locale)
    expect(screen.getAllByTestId('problem').map((item) => item.textContent)).toEqual(expected)
    expect(screen.getByTestId('preview-counts').textContent).toContain(
      locale === 'en' ? '2 rows with problems' : '2 satırda sorun var',
    )
    expect(
      screen.getByRole('button', { name: locale === 'en' ? 'Continue to the photos' : 'Fotoğraflara geç' }),
    ).toBeTruthy()
  })

  it('offers "Start the first N" when the quota is short, and sends limitRows only when chosen', async () => {
    const starts: unknown[] = []
    answer((url, init) => {
      if (url !== '/api/catalogue/batches/batch-1/start') return undefined
      const body = JSON.parse(String(init?.body)) as { limitRows?: number }
      starts.push(body)
      if (body.limitRows === undefined) {
        return json(402, {
          error: {
            code: 'CATALOGUE_QUOTA_SHORT',
            message: 'short',
            details: { needed: { images: 3, videos: 0 }, available: { images: 2, videos: 5 }, fits: 2 },
          },
        })
      }
      return json(200, startedBatch(2))
    })
    const user = userEvent.setup()
    await renderPage()
    await importList(user, importView)
    await goToOutputs(user)
    // The links were checked without a file.
    expect([...(FakeXhr.sent[1]?.body?.keys() ?? [])]).toEqual([])

    // The studio prompt comes with the studio's one-click suggestions.
    await user.click(screen.getByRole('button', { name: 'Marble countertop' }))
    await user.selectOptions(screen.getByTestId('preset'), 'Trendyol')
    expect(screen.getByTestId('quota-needed').textContent).toContain('3 needed, 2 left')
    await user.click(screen.getByRole('button', { name: 'Start 3 products' }))

    const panel = await screen.findByTestId('quota-short')
    expect(panel.textContent).toContain('What is left covers 2 of the 3 products. Nothing has been started.')
    expect(panel.textContent).toContain('Images: 3 needed, 2 left')
    expect(within(panel).getByRole('link', { name: 'Buy More Credits' }).getAttribute('href')).toBe(
      '/billing#buy-credits',
    )
    expect(starts).toEqual([
      {
        outputs: { studio: { prompt: 'marble countertop', aspectRatio: '1:1' }, seo: true },
        presetId: 'trendyol',
      },
    ])

    await user.click(within(panel).getByRole('button', { name: 'Start the first 2' }))
    await screen.findByText('Batch page')
    expect(starts).toHaveLength(2)
    expect(starts[1]).toEqual({
      outputs: { studio: { prompt: 'marble countertop', aspectRatio: '1:1' }, seo: true },
      presetId: 'trendyol',
      limitRows: 2,
    })
  })

  it("starts the marketplace step and the ratios from the seller's marketplace", async () => {
    const starts: unknown[] = []
    answer((url, init) => {
      if (url === '/api/preferences') return json(200, { marketplaceProfile: 'trendyol' })
      if (url !== '/api/catalogue/batches/batch-1/start') return undefined
      starts.push(JSON.parse(String(init?.body)))
      return json(200, startedBatch(3))
    })
    const user = userEvent.setup()
    await renderPage()
    await importList(user, importView)
    await goToOutputs(user)

    const preset = screen.getByTestId('preset') as HTMLSelectElement
    await vi.waitFor(() => expect(preset.value).toBe('trendyol'))
    // Trendyol's main image is 1200×1800: the studio image starts at 2:3.
    const studioRatio = screen.getByRole('group', { name: 'Aspect ratio' })
    expect((within(studioRatio).getByRole('radio', { name: /2:3/ }) as HTMLInputElement).checked).toBe(true)
    await user.click(screen.getByRole('button', { name: 'Marble countertop' }))
    await user.click(screen.getByRole('button', { name: 'Start 3 products' }))
    await screen.findByText('Batch page')
    expect(starts).toEqual([
      {
        outputs: { studio: { prompt: 'marble countertop', aspectRatio: '2:3' }, seo: true },
        presetId: 'trendyol',
      },
    ])
  })

  it('asks for a scene before starting a studio image, instead of sending', async () => {
    answer()
    const user = userEvent.setup()
    await renderPage()
    await importList(user, importView)
    await goToOutputs(user)
    await user.click(screen.getByRole('button', { name: 'Start 3 products' }))
    expect(screen.getByText('Describe a scene or pick a suggestion.')).toBeTruthy()
    expect(requestsTo('/api/catalogue/batches/batch-1/start', 'POST')).toHaveLength(0)
  })
})
