import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { assetView, imageGenerationView } from '#tests/support/web-views.ts'
import { LatestGenerations } from '#web/features/generations/components/latest-generations.tsx'
import { LibraryPage } from './library.tsx'

const fetchMock = stubFetchForEachTest()

const asset = (id: string) =>
  assetView(id, { width: 1024, height: 1024, fileName: `vitrin-product-image-1x1-${id}.png` })

function generation(id: string, overrides: Partial<GenerationView> = {}): GenerationView {
  return imageGenerationView(id, { input: asset(`${id}-in`), output: asset(`${id}-out`) }, overrides)
}

const seo = generation('seo-1', {
  mode: 'seo',
  isSaved: true,
  createdAt: '2026-06-03T12:00:00.000Z',
  result: {
    type: 'seo',
    model: 'offline',
    provider: 'offline',
    title: 'Blue ceramic mug',
    description: 'A blue mug for coffee.',
    features: ['Ceramic', 'Blue', '350 ml', 'Dishwasher safe'],
    keywords: ['mug', 'cup', 'coffee', 'tea', 'blue', 'ceramic', 'kitchen', 'gift', 'drink', 'home'],
  },
})
const newer = generation('img-2', { createdAt: '2026-06-03T13:00:00.000Z' })
const older = generation('img-1')

function renderLibrary(route = '/app/library') {
  return renderWeb(
    <Routes>
      <Route path="/app/library" element={<LibraryPage />} />
      <Route path="/app/create" element={<p>Create page</p>} />
    </Routes>,
    { route },
  )
}

/** The page's list requests (it also asks for the marketplace preference). */
const listCalls = () =>
  fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith('/api/generations'))

const cardTitles = () => screen.getAllByTestId('open-item').map((button) => button.textContent)

describe('LibraryPage', () => {
  it('lists generations newest first and keeps the type filter in the URL', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('mode=image')
        ? json(200, { items: [newer, older], nextCursor: null })
        : json(200, { items: [newer, seo, older], nextCursor: null }),
    )
    const user = userEvent.setup()
    await renderLibrary()

    expect(await screen.findAllByTestId('library-item')).toHaveLength(3)
    expect(cardTitles()).toEqual(['Image', 'SEO content', 'Image'])
    expect(listCalls()[0]).toBe('/api/generations?limit=20')
    const seoCard = screen.getAllByTestId('library-item')[1] as HTMLElement
    expect(within(seoCard).getByText('Saved')).toBeTruthy()
    expect(within(seoCard).getByText('Blue ceramic mug')).toBeTruthy()
    expect(within(seoCard).getByTestId('status-badge').textContent).toBe('Ready')
    expect(within(seoCard).getByRole('button', { name: /^SEO content, .*: Ready$/ })).toBeTruthy()

    const nav = screen.getByRole('navigation', { name: 'Filter' })
    expect(within(nav).getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBe('true')
    expect(within(nav).getByRole('link', { name: 'Saved' }).getAttribute('href')).toBe('/app/library?saved=1')
    await user.click(within(nav).getByRole('link', { name: 'Images' }))
    await vi.waitFor(() => expect(screen.getAllByTestId('library-item')).toHaveLength(2))
    expect(listCalls()[1]).toBe('/api/generations?limit=20&mode=image')
    expect(within(nav).getByRole('link', { name: 'Images' }).getAttribute('aria-current')).toBe('true')
    expect(within(nav).getByRole('link', { name: 'Saved' }).getAttribute('href')).toBe(
      '/app/library?type=image&saved=1',
    )
  })

  it('says when nothing is saved and leads to Create', async () => {
    fetchMock.mockImplementation(async () => json(200, { items: [], nextCursor: null }))
    const user = userEvent.setup()
    await renderLibrary('/app/library?saved=1')
    expect(await screen.findByRole('heading', { name: 'No saved generations' })).toBeTruthy()
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/generations?limit=20&saved=1')
    await user.click(screen.getByRole('link', { name: 'Create content' }))
    expect(screen.getByText('Create page')).toBeTruthy()
  })

  it('deletes only after confirmation, says so and moves focus to the next card', async () => {
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'DELETE'
        ? new Response(null, { status: 204 })
        : json(200, { items: [newer, older], nextCursor: null }),
    )
    const user = userEvent.setup()
    await renderLibrary()
    const [first] = await screen.findAllByTestId('library-item')
    const deleteButton = within(first as HTMLElement).getByRole('button', { name: /^Delete Image, / })

    await user.click(deleteButton)
    const dialog = screen.getByRole('dialog', { name: 'Delete this generation?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getAllByTestId('library-item')).toHaveLength(2)
    expect(document.activeElement).toBe(deleteButton)
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false)

    await user.click(deleteButton)
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete this generation?' })).getByRole('button', {
        name: 'Delete',
      }),
    )
    await vi.waitFor(() => expect(screen.getAllByTestId('library-item')).toHaveLength(1))
    const deleteCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE')
    expect(String(deleteCall?.[0])).toBe('/api/generations/img-2')
    expect(screen.getByTestId('library-announcer').textContent).toBe('Deleted.')
    expect(document.activeElement?.id).toBe('library-open-img-1')
  })

  it('opens one from ?open= with its full result and copy buttons, and closes back to the list', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input)
      if (url === '/api/generations/seo-1') return json(200, { generation: seo })
      if (url === '/api/preferences') return json(200, { marketplaceProfile: 'n11' })
      if (url === '/api/generations/seo-1/marketplace/n11?slot=main') {
        return json(200, {
          profile: 'n11',
          generationId: 'seo-1',
          image: null,
          video: null,
          copy: { results: [], fitted: { title: 'Blue ceramic mug', description: 'A blue mug for coffee.' } },
          exportUrl: null,
          summary: { pass: 0, warn: 0, fail: 0 },
        })
      }
      return json(200, { items: [newer, seo], nextCursor: null })
    })
    const user = userEvent.setup()
    await renderLibrary('/app/library?open=seo-1')
    const dialog = await screen.findByRole('dialog', { name: 'SEO content', description: /^Created / })
    expect(within(dialog).getByRole('button', { name: 'Copy Title' })).toBeTruthy()
    expect(within(dialog).getByText('Blue ceramic mug')).toBeTruthy()
    // The page puts the marketplace panel under the result, starting from the saved profile.
    const panel = within(dialog).getByRole('region', { name: 'Marketplace' })
    expect(await within(panel).findByRole('list', { name: 'n11 checklist' })).toBeTruthy()
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }))
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("shows each finished card's checklist summary for the preferred marketplace, asking again for pending ones", async () => {
    const summaryCalls: string[] = []
    fetchMock.mockImplementation(async (input) => {
      const url = String(input)
      if (url === '/api/preferences') return json(200, { marketplaceProfile: 'trendyol' })
      if (url.startsWith('/api/marketplace/summaries')) {
        const ids = new URL(url, 'http://x').searchParams.get('ids')
        summaryCalls.push(ids ?? '')
        return summaryCalls.length === 1
          ? json(200, {
              profile: 'trendyol',
              summaries: [
                { generationId: 'img-2', status: 'ready', summary: { pass: 5, warn: 1, fail: 2 } },
                { generationId: 'seo-1', status: 'ready', summary: { pass: 6, warn: 0, fail: 0 } },
                { generationId: 'img-1', status: 'pending' },
              ],
            })
          : json(200, {
              profile: 'trendyol',
              summaries: [{ generationId: 'img-1', status: 'ready', summary: { pass: 4, warn: 2, fail: 0 } }],
            })
      }
      if (url.includes('/marketplace/')) return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
      return json(200, { items: [newer, seo, older], nextCursor: null })
    })
    const user = userEvent.setup()
    await renderLibrary()
    const cards = (await screen.findAllByTestId('library-item')) as HTMLElement[]
    // One request for the page; the pending one is asked for again on its own.
    await vi.waitFor(() => expect(summaryCalls).toEqual(['img-2,seo-1,img-1', 'img-1']))
    const [first, second, third] = cards as [HTMLElement, HTMLElement, HTMLElement]
    const firstSummary = await within(first).findByRole('button', {
      name: 'Trendyol checklist: 2 to fix, 1 to check, 5 passing. Open the result to see it.',
    })
    expect(firstSummary.textContent).toBe('Trendyol2 to fix1 to check')
    expect(within(second).getByTestId('marketplace-card-summary').textContent).toBe('TrendyolAll 6 pass')
    await vi.waitFor(() =>
      expect(within(third).getByTestId('marketplace-card-summary').textContent).toBe('Trendyol2 to check'),
    )

    await user.click(firstSummary)
    expect(await screen.findByRole('dialog', { name: 'Image' })).toBeTruthy()
  })

  it('shows no summaries and asks for none without a preferred marketplace', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/preferences'
        ? json(200, { marketplaceProfile: null })
        : json(200, { items: [newer, seo], nextCursor: null }),
    )
    await renderLibrary()
    expect(await screen.findAllByTestId('library-item')).toHaveLength(2)
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([input]) => String(input) === '/api/preferences')).toBe(true),
    )
    expect(screen.queryByTestId('marketplace-card-summary')).toBeNull()
    expect(screen.queryByTestId('marketplace-card-summary-loading')).toBeNull()
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/summaries'))).toBe(false)
  })

  it('has a Publications tab, kept in the address, that lists what was published', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/publications'
        ? json(200, { publications: [] })
        : json(200, { items: [newer], nextCursor: null }),
    )
    const user = userEvent.setup()
    await renderLibrary('/app/library?view=publications')
    const tabs = screen.getByRole('tablist', { name: 'Library sections' })
    const publicationsTab = within(tabs).getByRole('tab', { name: 'Publications' })
    expect(publicationsTab.getAttribute('aria-selected')).toBe('true')
    expect((await screen.findByTestId('publications-empty')).textContent).toContain('Nothing published yet')
    expect(listCalls()).toEqual([])

    await user.click(within(tabs).getByRole('tab', { name: 'Images, videos and copy' }))
    expect(await screen.findAllByTestId('library-item')).toHaveLength(1)
    expect(screen.queryByTestId('publications-empty')).toBeNull()
    // Arrow keys move between the tabs, as the tabs pattern has it.
    await user.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(publicationsTab)
    expect(await screen.findByTestId('publications-empty')).toBeTruthy()
  })
})

describe('LatestGenerations', () => {
  it('links each of the latest to the library, opened', async () => {
    fetchMock.mockImplementation(async () => json(200, { items: [newer, seo], nextCursor: 'next' }))
    await renderWeb(<LatestGenerations />)
    const region = await screen.findByRole('region', { name: 'Latest generations' })
    await vi.waitFor(() => expect(within(region).getAllByTestId('latest-item')).toHaveLength(2))
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/generations?limit=4')
    const links = within(region).getAllByTestId('latest-item')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/app/library?open=img-2',
      '/app/library?open=seo-1',
    ])
    expect(within(region).getByRole('link', { name: 'View library' }).getAttribute('href')).toBe(
      '/app/library',
    )
  })

  it('has an empty state that leads to Create', async () => {
    fetchMock.mockImplementation(async () => json(200, { items: [], nextCursor: null }))
    await renderWeb(<LatestGenerations />, { locale: 'tr' })
    expect(await screen.findByText('Henüz bir şey oluşturulmadı. İçerik Oluştur ile başlayın.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'İçerik oluştur' }).getAttribute('href')).toBe('/app/create')
  })
})
