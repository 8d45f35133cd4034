import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { LatestGenerations } from '#web/features/generations/components/latest-generations.tsx'
import { LibraryPage } from './library.tsx'

const fetchMock = stubFetchForEachTest()

const asset = (id: string) => ({
  id,
  url: `/files/${id}.png`,
  downloadUrl: `/files/${id}.png?download=1`,
  mime: 'image/png',
  width: 1024,
  height: 1024,
  fileName: `vitrin-product-image-1x1-${id}.png`,
})

function generation(id: string, overrides: Partial<GenerationView> = {}): GenerationView {
  return {
    id,
    tool: 'product',
    mode: 'image',
    aspectRatio: '1:1',
    prompt: '',
    isRetrying: false,
    status: 'succeeded',
    queuePosition: null,
    errorCode: null,
    provider: 'offline',
    usesOwnKey: false,
    isSaved: false,
    input: asset(`${id}-in`),
    result: {
      type: 'image',
      image: asset(`${id}-out`),
      description: null,
      promptUsed: 'studio',
      provider: 'offline',
    },
    sourceGenerationId: null,
    createdAt: '2026-06-03T11:05:00.000Z',
    startedAt: '2026-06-03T11:05:00.000Z',
    finishedAt: '2026-06-03T11:05:02.000Z',
    ...overrides,
  }
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
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/generations?limit=20')
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
    expect(String(fetchMock.mock.calls[1]?.[0])).toBe('/api/generations?limit=20&mode=image')
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
