import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type {
  CataloguePublishDraftResponse,
  PublicationItemView,
  PublicationView,
} from '#shared/contracts/publishing.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import {
  colourAttribute,
  cupSetCategory,
  integrationsView,
  pieceCountAttribute,
  publicationItemView,
  publicationView,
} from '#tests/support/web-views.ts'
import { CataloguePublish } from './catalogue-publish.tsx'

const fetchMock = stubFetchForEachTest()

const connections = integrationsView

const category = cupSetCategory

const draft: CataloguePublishDraftResponse = {
  category,
  attributes: [colourAttribute, pieceCountAttribute(['6'])],
  rows: [
    {
      rowId: 'row-1',
      line: 2,
      sku: 'FNC-1',
      title: 'Fincan Takımı Beyaz',
      barcode: '8690000000001',
      imageCount: 3,
      hasVideo: true,
      filled: [],
      missing: [],
      lacking: [],
    },
    {
      rowId: 'row-2',
      line: 3,
      sku: 'FNC-2',
      title: 'Fincan Takımı Kırmızı',
      barcode: '8690000000002',
      imageCount: 2,
      hasVideo: false,
      filled: [],
      missing: [],
      lacking: ['desi'],
    },
    {
      rowId: 'row-3',
      line: 4,
      sku: 'FNC-3',
      title: 'Fincan Takımı Mavi',
      barcode: null,
      imageCount: 1,
      hasVideo: false,
      filled: [],
      missing: ['711'],
      lacking: ['barcode'],
    },
  ],
  questions: ['47'],
  defaultsAsked: ['desi', 'vatRate'],
}

function item(
  id: string,
  status: PublicationItemView['status'],
  reasons: string[] = [],
): PublicationItemView {
  return publicationItemView(id, status, reasons, {
    barcode: `869000000000${id}`,
    title: `Fincan Takımı ${id}`,
    catalogueRowId: `row-${id}`,
  })
}

function publication(status: PublicationView['status'], items: PublicationItemView[]): PublicationView {
  return publicationView('pub-1', items, { status, catalogueBatchId: 'batch-1' })
}

const sentTo = (path: string) => {
  const call = fetchMock.mock.calls.find(([input, init]) => String(input) === path && init?.method === 'POST')
  return call ? JSON.parse(String(call[1]?.body)) : null
}

describe('CataloguePublish', () => {
  it('sends a seller without a connection to Settings → Integrations', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/integrations' ? json(200, connections(false)) : json(200, { publications: [] }),
    )
    await renderWeb(<CataloguePublish batchId="batch-1" />)
    const section = screen.getByRole('region', { name: 'Publish to Trendyol / Hepsiburada' })
    expect((await within(section).findByTestId('batch-publish-not-connected')).textContent).toContain(
      'Connect your Trendyol or Hepsiburada seller account',
    )
    expect(within(section).getByRole('link', { name: 'Settings → Integrations' }).getAttribute('href')).toBe(
      '/settings?tab=integrations',
    )
  })

  it('asks the batch questions and defaults once, shows what each row lacks, publishes and follows the batch', async () => {
    const user = userEvent.setup()
    let published = false
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input)
      if (url === '/api/integrations') return json(200, connections(true))
      if (url === '/api/publications?batchId=batch-1') {
        return json(200, { publications: published ? [publication('queued', [item('2', 'queued')])] : [] })
      }
      if (url.startsWith('/api/integrations/trendyol/categories?')) {
        return json(200, { categories: [category], fetchedAt: '2026-11-29T10:00:00.000Z' })
      }
      if (url === '/api/publications/catalogue/draft' && init?.method === 'POST') return json(200, draft)
      if (url === '/api/integrations/trendyol/categories/1111/attributes') {
        return json(200, { category, attributes: draft.attributes, fetchedAt: '2026-11-29T10:00:00.000Z' })
      }
      if (url === '/api/publications/catalogue' && init?.method === 'POST') {
        published = true
        return json(202, { publications: [publication('queued', [item('2', 'queued')])] })
      }
      if (url === '/api/publications/pub-1') {
        return json(200, {
          publication: publication('done', [item('2', 'rejected', ['Zorunlu özellik eksik: Renk'])]),
        })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<CataloguePublish batchId="batch-1" />)
    const section = screen.getByRole('region', { name: 'Publish to Trendyol / Hepsiburada' })
    await user.type(await within(section).findByLabelText('Category'), 'fincan')
    await user.click(within(section).getByRole('button', { name: 'Search' }))
    await user.click(await within(section).findByRole('button', { name: 'Choose Fincan Takımı' }))

    const form = await within(section).findByTestId('batch-publish-form')
    expect(sentTo('/api/publications/catalogue/draft')).toEqual({
      marketplace: 'trendyol',
      categoryId: '1111',
      batchId: 'batch-1',
    })
    // The row's video goes too: to Trendyol's video service once the product is approved.
    const videos = within(form).getByTestId('batch-publish-videos').textContent
    expect(videos).toContain('Rows with a video: 1.')
    expect(videos).toContain(
      'Trendyol takes a product’s video through its video service once the product is approved',
    )
    // The batch question, once, with its allowed values.
    const questions = within(form).getByRole('group', { name: 'Questions for the whole batch' })
    const colour = within(questions).getByLabelText('Renk') as HTMLSelectElement
    expect([...colour.options].map((option) => option.textContent)).toEqual(['Choose…', 'Beyaz', 'Kırmızı'])
    const defaults = within(form).getByRole('group', { name: 'Values for rows that lack them' })
    expect(within(defaults).getByLabelText('Desi')).toBeTruthy()
    expect(within(defaults).getByLabelText('VAT rate')).toBeTruthy()
    expect(within(defaults).queryByLabelText('Brand')).toBeNull()

    const lacks = () =>
      within(form)
        .getAllByTestId('batch-publish-lacks')
        .map((cell) => cell.textContent)
    expect(lacks()).toEqual([
      'Ready',
      'Held back until given: Desi',
      'Held back until given: Parça Sayısı, Barcode',
    ])
    const summary = within(form).getByTestId('batch-publish-summary')
    expect(summary.textContent).toContain('1 of 3 products will be sent.')
    expect(summary.textContent).toContain('Unanswered questions: 1')

    await user.type(within(defaults).getByLabelText('Desi'), '2,5')
    expect(lacks()[1]).toBe('Ready')
    await user.click(within(form).getByRole('checkbox', { name: 'Publish line 2 (FNC-1)' }))
    expect(summary.textContent).toContain('1 of 3 products will be sent.')
    await user.selectOptions(colour, '1')
    expect(summary.textContent).not.toContain('Unanswered')
    await user.click(within(form).getByRole('button', { name: 'Publish to Trendyol' }))

    const title = await within(section).findByRole('heading', { name: 'This batch’s publications' })
    expect(sentTo('/api/publications/catalogue')).toEqual({
      marketplace: 'trendyol',
      categoryId: '1111',
      batchId: 'batch-1',
      answers: [{ attributeId: '47', valueId: '1', value: 'Beyaz', source: 'seller' }],
      defaults: { desi: 2.5 },
      excludedRowIds: ['row-1'],
    })
    await waitFor(() => expect(document.activeElement).toBe(title))
    expect(within(section).getByText('Publications queued: 1. Followed below.')).toBeTruthy()
    // Followed with the same status, reasons and fixes as everywhere else.
    const status = within(section).getByTestId('publication-status')
    await waitFor(() =>
      expect(within(status).getByTestId('publication-item-status').textContent).toBe('Rejected'),
    )
    expect(status.textContent).toContain('A required attribute of the category is missing.')
    expect(within(section).queryByTestId('batch-publish-form')).toBeNull()
    // Resubmitting knows the batch's category: the attribute form opens without asking for it.
    await user.click(within(status).getByRole('button', { name: 'Fix and resubmit all rejected (1)' }))
    const dialog = await screen.findByRole('dialog', { name: 'Fix and resubmit' })
    expect(await within(dialog).findByLabelText('Renk')).toBeTruthy()
    expect(within(dialog).queryByLabelText('Category')).toBeNull()
  }, 15_000)

  it('refuses a wrong default or an empty send in the browser, and marks a default the server refuses', async () => {
    const user = userEvent.setup()
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input)
      if (url === '/api/integrations') return json(200, connections(true))
      if (url === '/api/publications?batchId=batch-1') return json(200, { publications: [] })
      if (url.startsWith('/api/integrations/trendyol/categories?')) {
        return json(200, { categories: [category], fetchedAt: '2026-11-29T10:00:00.000Z' })
      }
      if (url === '/api/publications/catalogue/draft' && init?.method === 'POST') return json(200, draft)
      if (url === '/api/publications/catalogue' && init?.method === 'POST') {
        return json(400, {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'x',
            details: { fields: { 'defaults.desi': 'invalid' } },
          },
        })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<CataloguePublish batchId="batch-1" />)
    const section = screen.getByRole('region', { name: 'Publish to Trendyol / Hepsiburada' })
    await user.type(await within(section).findByLabelText('Category'), 'fincan')
    await user.click(within(section).getByRole('button', { name: 'Search' }))
    await user.click(await within(section).findByRole('button', { name: 'Choose Fincan Takımı' }))
    const form = await within(section).findByTestId('batch-publish-form')
    const desi = within(form).getByLabelText('Desi')
    const publish = within(form).getByRole('button', { name: 'Publish to Trendyol' })
    const sends = () =>
      fetchMock.mock.calls.filter(([input]) => String(input) === '/api/publications/catalogue')

    await user.type(desi, 'many')
    await user.click(publish)
    expect(within(form).getByRole('alert').textContent).toBe('Check the fields marked below.')
    expect(desi.getAttribute('aria-invalid')).toBe('true')
    expect(within(form).getByText('This value is not valid.')).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(desi))

    await user.clear(desi)
    await user.click(within(form).getByRole('checkbox', { name: 'Publish line 2 (FNC-1)' }))
    await user.click(publish)
    expect(within(form).getByRole('alert').textContent).toBe(
      'No product can be sent yet: give what the rows lack, or choose rows that are ready.',
    )
    expect(sends()).toHaveLength(0)

    await user.click(within(form).getByRole('checkbox', { name: 'Publish line 2 (FNC-1)' }))
    await user.type(desi, '2')
    await user.click(publish)
    await waitFor(() => expect(desi.getAttribute('aria-invalid')).toBe('true'))
    expect(within(form).getByRole('alert').textContent).toBe('Please check the highlighted fields.')
    expect(sends()).toHaveLength(1)
    expect(publish.getAttribute('aria-busy')).toBe('false')
  })

  it('shows the batch’s earlier publications first, in Turkish, and publishes again on request', async () => {
    const user = userEvent.setup()
    fetchMock.mockImplementation(async (input) => {
      const url = String(input)
      if (url === '/api/integrations') return json(200, connections(true))
      if (url === '/api/publications?batchId=batch-1') {
        return json(200, { publications: [publication('done', [item('1', 'live')])] })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<CataloguePublish batchId="batch-1" />, { locale: 'tr' })
    const section = screen.getByRole('region', { name: 'Trendyol / Hepsiburada’da yayınla' })
    const status = await within(section).findByTestId('publication-status')
    expect(within(status).getByTestId('publication-item-status').textContent).toBe('Yayında')
    expect(within(section).queryByLabelText('Kategori')).toBeNull()
    // A final publication from the list is not read again.
    expect(fetchMock.mock.calls.map(([input]) => String(input))).not.toContain('/api/publications/pub-1')
    await user.click(within(section).getByRole('button', { name: 'Yeniden yayınla' }))
    expect(await within(section).findByLabelText('Kategori')).toBeTruthy()
  })
})
