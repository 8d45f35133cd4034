import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { suggestMapping } from '#shared/catalogue/columns.ts'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { MappingStep } from './mapping-step.tsx'

const fetchMock = stubFetchForEachTest()

// Trendyol's template header, listing columns included.
const headers = [
  'Barkod',
  'Stok Kodu',
  'Ürün Adı',
  "Trendyol'da Satılacak Fiyat (KDV Dahil)",
  'Piyasa Satış Fiyatı (KDV Dahil)',
  'Ürün Stok Adedi',
  'KDV Oranı',
  'Desi',
  'Görsel 1',
]

function importView(overrides: Partial<CatalogueImportView> = {}): CatalogueImportView {
  return {
    batch: {
      id: 'batch-1',
      status: 'draft',
      fileName: 'trendyol.xlsx',
      rowCount: 2,
      productCount: 1,
      presetId: null,
      createdAt: '2026-11-29T10:00:00.000Z',
      startedAt: null,
      finishedAt: null,
    },
    headers,
    mapping: suggestMapping(headers),
    sampleRows: [
      {
        line: 2,
        cells: ['8690000000001', 'KRM-1', 'İpek Eşarp', '1.299,90', '1.499,90', '25', '%20', '2', 'a.jpg'],
      },
      { line: 3, cells: ['8690000000002', 'KRM-2', 'Yün Şal', 'ücretsiz', '', '5', '18', '1', 'b.jpg'] },
    ],
    problems: [{ line: 3, code: 'vatRateInvalid', field: 'vatRate', column: 6, value: '18' }],
    zipPhotoCount: null,
    photosChecked: false,
    needsZip: true,
    ...overrides,
  }
}

function renderStep(locale: 'en' | 'tr', view = importView()) {
  return renderWeb(
    <MappingStep
      view={view}
      onChange={() => {}}
      onContinue={() => {}}
      onChooseAnother={() => {}}
      isLeaving={false}
    />,
    { locale },
  )
}

const selected = (label: string) => {
  const select = screen.getByLabelText<HTMLSelectElement>(label)
  return select.selectedOptions[0]?.textContent
}

describe('MappingStep: the listing columns', () => {
  it('lists them under their own heading with the detected columns, in English', async () => {
    await renderStep('en')
    const group = screen.getByRole('group', { name: 'Listing details' })
    expect(
      within(group)
        .getAllByRole('combobox')
        .map((select) => select.getAttribute('data-testid')),
    ).toEqual(['map-barcode', 'map-price', 'map-listPrice', 'map-stock', 'map-vatRate', 'map-desi'])
    expect(selected('Barcode')).toBe('Barkod')
    expect(selected('SKU')).toBe('Stok Kodu')
    expect(selected('Sale price')).toBe("Trendyol'da Satılacak Fiyat (KDV Dahil)")
    expect(selected('List price')).toBe('Piyasa Satış Fiyatı (KDV Dahil)')
    expect(selected('Stock')).toBe('Ürün Stok Adedi')
    expect(selected('VAT rate')).toBe('KDV Oranı')
    expect(selected('Desi')).toBe('Desi')
    // None of them is required.
    expect(within(group).queryByText('required')).toBeNull()
    const problem = screen.getByTestId('problem')
    expect(problem.textContent).toContain('Line 3 · VAT rate: The VAT rate must be 0, 1, 10 or 20 (%).')
    expect(problem.textContent).toContain('18')
  })

  it('says the same in Turkish', async () => {
    await renderStep('tr')
    const group = screen.getByRole('group', { name: 'Satış bilgileri' })
    expect(within(group).getAllByRole('combobox')).toHaveLength(6)
    expect(selected('Barkod')).toBe('Barkod')
    expect(selected('Satış fiyatı')).toBe("Trendyol'da Satılacak Fiyat (KDV Dahil)")
    expect(selected('Piyasa satış fiyatı')).toBe('Piyasa Satış Fiyatı (KDV Dahil)')
    expect(selected('KDV oranı')).toBe('KDV Oranı')
    expect(screen.getByTestId('problem').textContent).toContain('KDV oranı 0, 1, 10 ya da 20 (%) olmalı.')
  })

  it('sends a changed listing column to the server', async () => {
    const sent: unknown[] = []
    fetchMock.mockImplementation(async (_input, init) => {
      const body = JSON.parse(String(init?.body))
      sent.push(body)
      return json(200, importView({ mapping: body.mapping }))
    })
    await renderStep('en')
    await userEvent.setup().selectOptions(screen.getByTestId('map-desi'), '')
    expect(sent).toEqual([{ mapping: expect.not.objectContaining({ desi: expect.anything() }) }])
    expect(sent[0]).toMatchObject({ mapping: { barcode: 0, sku: 1, price: 3, vatRate: 6 } })
  })
})
