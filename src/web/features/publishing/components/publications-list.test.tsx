import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { PublicationItemView, PublicationView } from '#shared/contracts/publishing.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { publicationItemView, publicationView } from '#tests/support/web-views.ts'
import { PublicationsList } from './publications-list.tsx'

const fetchMock = stubFetchForEachTest()

const item = publicationItemView

function publication(
  id: string,
  createdAt: string,
  items: PublicationItemView[],
  overrides: Partial<PublicationView> = {},
): PublicationView {
  return publicationView(id, items, { createdAt, updatedAt: createdAt, ...overrides })
}

const fromStudio = publication('pub-a', '2026-11-27T09:00:00.000Z', [item('a1', 'live')])
const fromBatch = publication(
  'pub-b',
  '2026-11-28T09:00:00.000Z',
  [item('b1', 'live'), item('b2', 'rejected', ['Görsel boyutu en az 1200x1800 piksel olmalıdır.'])],
  { catalogueBatchId: 'batch-1', marketplace: 'hepsiburada' },
)
const resubmission = publication('pub-c', '2026-11-29T09:00:00.000Z', [item('a2', 'pending')], {
  resubmitOf: 'pub-a',
  status: 'reviewing',
})

const listCalls = () => fetchMock.mock.calls.filter(([input]) => String(input) === '/api/publications').length

describe('PublicationsList', () => {
  it('says how to publish when nothing has been published', async () => {
    fetchMock.mockImplementation(async () => json(200, { publications: [] }))
    await renderWeb(<PublicationsList />)
    const empty = await screen.findByTestId('publications-empty')
    expect(within(empty).getByRole('heading').textContent).toBe('Nothing published yet')
    expect(empty.textContent).toContain('use Publish under it')
    expect(within(empty).getByRole('link', { name: 'Go to Create' }).getAttribute('href')).toBe('/app/create')
    expect(within(empty).getByRole('link', { name: 'Go to Catalogue' }).getAttribute('href')).toBe(
      '/app/catalogue',
    )
  })

  it('shows a load failure with its reason and tries again', async () => {
    const user = userEvent.setup()
    fetchMock.mockImplementationOnce(async () => json(500, { error: { code: 'INTERNAL', message: 'x' } }))
    fetchMock.mockImplementation(async () => json(200, { publications: [] }))
    await renderWeb(<PublicationsList />, { locale: 'tr' })
    expect((await screen.findByRole('alert')).textContent).toContain('Yayınlarınız yüklenemedi.')
    await user.click(screen.getByRole('button', { name: 'Yeniden dene' }))
    expect((await screen.findByTestId('publications-empty')).textContent).toContain(
      'Henüz bir şey yayınlanmadı',
    )
  })

  it('lists publications newest first with where each came from, opens one to its products and resubmits from there', async () => {
    const user = userEvent.setup()
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input)
      if (url === '/api/publications')
        return json(200, { publications: [fromStudio, resubmission, fromBatch] })
      if (url === '/api/publications/pub-b/resubmit' && init?.method === 'POST') {
        return json(202, {
          publication: publication('pub-d', '2026-11-29T10:00:00.000Z', [item('b2', 'queued')], {
            status: 'queued',
            marketplace: 'hepsiburada',
            resubmitOf: 'pub-b',
          }),
          applied: [{ itemId: 'b2', barcode: 'VTR-b2', fixes: ['re-export-images'] }],
        })
      }
      if (url === '/api/publications/pub-d') {
        return json(200, {
          publication: publication('pub-d', '2026-11-29T10:00:00.000Z', [item('b2', 'live')], {
            marketplace: 'hepsiburada',
            resubmitOf: 'pub-b',
          }),
        })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<PublicationsList />)
    const list = await screen.findByRole('list', { name: 'Publications, newest first' })
    const entries = within(list).getAllByTestId('publication-entry')
    expect(entries.map((entry) => within(entry).getByRole('heading').textContent)).toEqual([
      expect.stringMatching(/^Trendyol · Nov 29, 2026/),
      expect.stringMatching(/^Hepsiburada · Nov 28, 2026/),
      expect.stringMatching(/^Trendyol · Nov 27, 2026/),
    ])
    const [newest, batch, studio] = entries as [HTMLElement, HTMLElement, HTMLElement]
    expect(within(newest).getByTestId('publication-origin').textContent).toContain(
      'Resubmission of the publication of Nov 27, 2026',
    )
    expect(within(newest).getByTestId('count-pending').textContent).toBe('Under review: 1')
    expect(within(studio).getByTestId('publication-origin').textContent).toContain('From a studio result')
    expect(within(batch).getByRole('link', { name: 'From a catalogue batch' }).getAttribute('href')).toBe(
      '/app/catalogue/batch-1',
    )
    expect(within(batch).getByTestId('count-live').textContent).toBe('Live: 1')
    expect(within(batch).getByTestId('count-rejected').textContent).toBe('Rejected: 1')
    expect(within(batch).queryByTestId('publication-item')).toBeNull()

    const toggle = within(batch).getByRole('button', { name: 'Show products (2)' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await user.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const products = document.getElementById(toggle.getAttribute('aria-controls') ?? '') as HTMLElement
    const rows = within(products).getAllByTestId('publication-item')
    expect(rows).toHaveLength(2)
    const live = within(rows[0] as HTMLElement).getByRole('link', {
      name: 'View on Hepsiburada (opens in a new tab)',
    })
    expect(live.getAttribute('href')).toBe('https://www.trendyol.com/fake/p-b1')
    expect(live.getAttribute('target')).toBe('_blank')
    expect(live.getAttribute('rel')).toContain('noopener')
    expect(rows[1]?.textContent).toContain('An image is not in the size the marketplace asks for.')
    expect(rows[1]?.textContent).toContain(
      'Hepsiburada said: “Görsel boyutu en az 1200x1800 piksel olmalıdır.”',
    )

    const before = listCalls()
    await user.click(within(products).getByRole('button', { name: 'Fix and resubmit all rejected (1)' }))
    const dialog = await screen.findByRole('dialog', { name: 'Fix and resubmit' })
    await user.click(within(dialog).getByRole('button', { name: 'Resubmit (1)' }))
    // Followed in place, and the list is read again so the resubmission appears in it.
    expect((await within(products).findByTestId('resubmit-applied')).textContent).toContain(
      'VTR-b2: Re-export the images',
    )
    await waitFor(() =>
      expect(within(products).getByTestId('publication-item-status').textContent).toBe('Live'),
    )
    expect(listCalls()).toBeGreaterThan(before)
  })
})
