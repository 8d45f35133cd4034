import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type {
  CategoryAttributesResponse,
  PublicationItemView,
  PublicationView,
  ResubmitResponse,
} from '#shared/contracts/publishing.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import {
  colourAttribute,
  cupSetCategory,
  publicationItemView,
  publicationView,
} from '#tests/support/web-views.ts'
import { PublicationStatus } from './publication-status.tsx'

const fetchMock = stubFetchForEachTest()

const category = cupSetCategory

const attributes: CategoryAttributesResponse = {
  category,
  attributes: [
    colourAttribute,
    { id: '12', name: 'Materyal', isRequired: false, isMultiple: false, allowsCustom: true, values: [] },
  ],
  fetchedAt: '2026-11-29T10:00:00.000Z',
}

const item = publicationItemView

function publication(
  id: string,
  status: PublicationView['status'],
  items: PublicationItemView[],
): PublicationView {
  return publicationView(id, items, { status, resubmitOf: id === 'pub-1' ? null : 'pub-1' })
}

const calls = () => fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`)
const sentTo = (path: string) => {
  const call = fetchMock.mock.calls.find(([input, init]) => String(input) === path && init?.method === 'POST')
  return call ? JSON.parse(String(call[1]?.body)) : null
}

describe('Fix and resubmit', () => {
  it('says what Vitrin fixes by itself, asks only the named attribute, resubmits every refused product and follows the new publication', async () => {
    const user = userEvent.setup()
    const first = publication('pub-1', 'done', [
      item('1', 'rejected', [
        'Görsel boyutu en az 1200x1800 piksel olmalıdır.',
        'Ürün başlığı en fazla 100 karakter olabilir',
      ]),
      item('2', 'rejected', ['Zorunlu özellik eksik: Renk']),
      item('3', 'live'),
    ])
    const resubmitted: ResubmitResponse = {
      publication: publication('pub-2', 'queued', [item('1', 'queued'), item('2', 'queued')]),
      applied: [
        { itemId: '1', barcode: 'VTR-1', fixes: ['re-export-images', 'fit-title'] },
        { itemId: '2', barcode: 'VTR-2', fixes: ['attribute-form'] },
      ],
    }
    fetchMock.mockImplementation(async (input) => {
      const url = String(input)
      if (url === '/api/publications/pub-1/resubmit') return json(202, resubmitted)
      if (url === '/api/publications/pub-2') {
        return json(200, {
          publication: publication('pub-2', 'done', [item('1', 'live'), item('2', 'live')]),
        })
      }
      if (url === '/api/integrations/trendyol/categories/1111/attributes') return json(200, attributes)
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<PublicationStatus id="pub-1" initial={first} category={category} />)
    const status = screen.getByTestId('publication-status')
    // A final publication the screen already has is not read again.
    expect(calls()).toEqual([])
    // Only the refused products get the button; the live one does not.
    expect(within(status).getAllByRole('button', { name: /^Fix and resubmit Fincan/ })).toHaveLength(2)
    await user.click(within(status).getByRole('button', { name: 'Fix and resubmit all rejected (2)' }))

    const dialog = await screen.findByRole('dialog', { name: 'Fix and resubmit' })
    const automatic = within(dialog).getByTestId('resubmit-automatic')
    expect(automatic.textContent).toContain(
      "Re-export the images: Renders the images again in the marketplace's size and format",
    )
    expect(automatic.textContent).toContain(
      "Fit the title: Writes the title from your copy, fitted to the marketplace's length limit.",
    )
    // The attribute the reason names, with the values the category allows; not the others.
    const colour = await within(dialog).findByLabelText('Renk')
    expect(within(dialog).queryByLabelText('Materyal')).toBeNull()
    expect(within(dialog).queryByLabelText('Sale price (TL, VAT included)')).toBeNull()
    await user.selectOptions(colour, '1')
    await user.click(within(dialog).getByRole('button', { name: 'Resubmit (2)' }))

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(sentTo('/api/publications/pub-1/resubmit')).toEqual({
      itemIds: null,
      attributes: [{ attributeId: '47', valueId: '1', value: 'Beyaz', source: 'seller' }],
      listing: {},
      categoryId: null,
    })
    // The new publication is followed in place, under what was fixed in each product.
    const applied = within(status).getByTestId('resubmit-applied')
    expect(applied.textContent).toContain('VTR-1: Re-export the images, Fit the title')
    expect(applied.textContent).toContain('VTR-2: Fill in the attribute')
    await waitFor(() =>
      expect(document.activeElement?.textContent).toContain('Sent again (2), with these fixes:'),
    )
    await waitFor(() => expect(within(status).getAllByText('Live')).toHaveLength(2))
    expect(within(status).getByRole('status').textContent).toBe(
      'Trendyol has decided on the resubmitted products.',
    )
    expect(calls()).toContain('GET /api/publications/pub-2')
  })

  it('opens the listing fields a reason is about, checks them, and sends the correction for that product only', async () => {
    const user = userEvent.setup()
    const first = publication('pub-1', 'done', [
      item('1', 'rejected', ['Satış fiyatı liste fiyatından büyük olamaz']),
      item('2', 'rejected', ['Ürün sahte olarak değerlendirildi']),
    ])
    fetchMock.mockImplementation(async (input) => {
      const url = String(input)
      if (url === '/api/publications/pub-1/resubmit') {
        return json(202, {
          publication: publication('pub-2', 'done', [item('1', 'live')]),
          applied: [{ itemId: '1', barcode: 'VTR-1', fixes: ['edit-listing'] }],
        })
      }
      if (url === '/api/publications/pub-2') {
        return json(200, { publication: publication('pub-2', 'done', [item('1', 'live')]) })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<PublicationStatus id="pub-1" initial={first} />)
    const status = screen.getByTestId('publication-status')
    // The reason nothing in Vitrin can fix says so beside the product.
    expect(status.textContent).toContain('Vitrin cannot fix this by itself')

    // Cancelling gives focus back to the button that opened the dialog.
    const open = within(status).getByRole('button', { name: 'Fix and resubmit Fincan 1' })
    await user.click(open)
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(open)

    await user.click(open)
    const dialog = await screen.findByRole('dialog', { name: 'Fix and resubmit' })
    expect(within(dialog).queryByTestId('resubmit-automatic')).toBeNull()
    const salePrice = within(dialog).getByLabelText('Sale price (TL, VAT included)')
    expect(within(dialog).getByLabelText('List price (TL)')).toBeTruthy()
    await user.type(salePrice, 'abc')
    await user.click(within(dialog).getByRole('button', { name: 'Resubmit (1)' }))
    expect(await within(dialog).findByText('Check the fields marked below.')).toBeTruthy()
    expect(salePrice.getAttribute('aria-invalid')).toBe('true')
    expect(sentTo('/api/publications/pub-1/resubmit')).toBeNull()

    await user.clear(salePrice)
    await user.type(salePrice, '1.199,90')
    await user.click(within(dialog).getByRole('button', { name: 'Resubmit (1)' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(sentTo('/api/publications/pub-1/resubmit')).toEqual({
      itemIds: ['1'],
      attributes: [],
      listing: { salePrice: 1199.9 },
      categoryId: null,
    })
    expect(within(status).getByTestId('resubmit-applied').textContent).toContain('VTR-1: Edit the listing')
  })

  it('asks for the category first when a reason is the category, then the attributes of the one chosen', async () => {
    const user = userEvent.setup()
    const first = publication('pub-1', 'done', [
      item('1', 'rejected', ['Kategori hatalı', 'Zorunlu özellik eksik: Renk']),
    ])
    fetchMock.mockImplementation(async (input) => {
      const url = String(input)
      if (url.startsWith('/api/integrations/trendyol/categories?')) {
        return json(200, { categories: [category], fetchedAt: '2026-11-29T10:00:00.000Z' })
      }
      if (url === '/api/integrations/trendyol/categories/1111/attributes') return json(200, attributes)
      if (url === '/api/publications/pub-1/resubmit') {
        return json(422, { error: { code: 'MARKETPLACE_CATEGORY_NOT_LEAF', message: 'x' } })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<PublicationStatus id="pub-1" initial={first} />, { locale: 'tr' })
    await user.click(screen.getByRole('button', { name: 'Fincan 1 ürününü düzelt ve yeniden gönder' }))
    const dialog = await screen.findByRole('dialog', { name: 'Düzelt ve yeniden gönder' })
    await user.click(within(dialog).getByRole('button', { name: 'Yeniden gönder (1)' }))
    expect(await within(dialog).findByText('Önce kategoriyi seçin.')).toBeTruthy()
    expect(sentTo('/api/publications/pub-1/resubmit')).toBeNull()

    await user.type(within(dialog).getByLabelText('Kategori'), 'fincan')
    await user.click(within(dialog).getByRole('button', { name: 'Ara' }))
    await user.click(await within(dialog).findByRole('button', { name: 'Fincan Takımı kategorisini seç' }))
    await user.selectOptions(await within(dialog).findByLabelText('Renk'), '2')
    await user.click(within(dialog).getByRole('button', { name: 'Yeniden gönder (1)' }))
    // The server's refusal is shown in the seller's language, and the dialog stays open.
    await waitFor(() => expect(sentTo('/api/publications/pub-1/resubmit')).not.toBeNull())
    expect(sentTo('/api/publications/pub-1/resubmit')).toEqual({
      itemIds: ['1'],
      attributes: [{ attributeId: '47', valueId: '2', value: 'Kırmızı', source: 'seller' }],
      listing: {},
      categoryId: '1111',
    })
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Bu kategoriye doğrudan ürün eklenemez. Alt kategorilerinden birini seçin.',
    )
    expect(screen.getByRole('dialog')).toBe(dialog)
  })

  it('marks the field the server refuses and keeps the dialog open', async () => {
    const user = userEvent.setup()
    const first = publication('pub-1', 'done', [item('1', 'rejected', ['Stok kodu geçersiz'])])
    fetchMock.mockImplementation(async () =>
      json(400, {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'x',
          details: { fields: { 'listing.stockCode': 'invalid' } },
        },
      }),
    )
    await renderWeb(<PublicationStatus id="pub-1" initial={first} />)
    await user.click(screen.getByRole('button', { name: 'Fix and resubmit Fincan 1' }))
    const dialog = await screen.findByRole('dialog', { name: 'Fix and resubmit' })
    const stockCode = within(dialog).getByLabelText('Stock code')
    await user.type(stockCode, 'STK-NEW')
    await user.click(within(dialog).getByRole('button', { name: 'Resubmit (1)' }))
    await waitFor(() => expect(stockCode.getAttribute('aria-invalid')).toBe('true'))
    expect(sentTo('/api/publications/pub-1/resubmit')).toEqual({
      itemIds: ['1'],
      attributes: [],
      listing: { stockCode: 'STK-NEW' },
      categoryId: null,
    })
    expect(screen.getByRole('dialog')).toBe(dialog)
  })
})
