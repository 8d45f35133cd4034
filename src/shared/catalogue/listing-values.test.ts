import { describe, expect, it } from 'vitest'
import {
  parseNumber,
  readBarcode,
  readDesi,
  readListingValues,
  readPrice,
  readStock,
  readVatRate,
} from './listing-values.ts'

describe('parseNumber', () => {
  it.each([
    ['1.299,90', 1299.9],
    ['1299,90', 1299.9],
    ['1299.90', 1299.9],
    ['1,299.90', 1299.9],
    ['₺1.299,90', 1299.9],
    ['1.299,90 ₺', 1299.9],
    ['1299 TL', 1299],
    ['1.299,90 TL', 1299.9],
    ['1299tl', 1299],
    ['TRY 49,5', 49.5],
    ['1 299,90', 1299.9],
    ['1\u00a0299,90', 1299.9],
    ['1.299', 1299],
    ['1,299', 1299],
    ['1.299.000', 1_299_000],
    ['1,299,000.5', 1_299_000.5],
    ['0,125', 0.125],
    ['12.5000', 12.5],
    ['0', 0],
    ['120', 120],
    ['1299.9', 1299.9],
  ])('%s is %d', (text, value) => {
    expect(parseNumber(text)).toBe(value)
  })

  it.each([
    [''],
    ['abc'],
    ['-5'],
    ['+5'],
    ['8,69E+12'],
    ['1.2.3'],
    ['1.29.000'],
    ['1,299,90'],
    ['12,'],
    ['$12'],
    ['12 €'],
    ['1.299,90,5'],
  ])('%s is not a number', (text) => {
    expect(parseNumber(text)).toBeNull()
  })
})

describe('the listing readers', () => {
  it('reads a price above zero in kuruş', () => {
    expect(readPrice('1.299,90 TL', 'priceInvalid')).toEqual({ ok: true, value: 1299.9 })
    expect(readPrice('0', 'priceInvalid')).toEqual({ ok: false, problem: 'priceInvalid' })
    expect(readPrice('12,345', 'listPriceInvalid')).toEqual({ ok: true, value: 12345 })
    expect(readPrice('12.3456', 'listPriceInvalid')).toEqual({ ok: false, problem: 'listPriceInvalid' })
    expect(readPrice('ücretsiz', 'priceInvalid')).toEqual({ ok: false, problem: 'priceInvalid' })
  })

  it('reads stock as a whole number, zero or more', () => {
    expect(readStock('0')).toEqual({ ok: true, value: 0 })
    expect(readStock('1.000')).toEqual({ ok: true, value: 1000 })
    expect(readStock('25 adet')).toEqual({ ok: true, value: 25 })
    expect(readStock('12,5')).toEqual({ ok: false, problem: 'stockInvalid' })
    expect(readStock('-3')).toEqual({ ok: false, problem: 'stockInvalid' })
    expect(readStock('çok')).toEqual({ ok: false, problem: 'stockInvalid' })
  })

  it.each([
    ['20', 20],
    ['%20', 20],
    ['% 20', 20],
    ['20%', 20],
    ['10', 10],
    ['1', 1],
    ['0', 0],
    ['%0', 0],
    ['0,20', 20],
    ['0.2', 20],
    ['0,1', 10],
    ['0,01', 1],
  ])('VAT %s is %d', (text, rate) => {
    expect(readVatRate(text)).toEqual({ ok: true, value: rate })
  })

  it.each([['18'], ['%8'], ['0,18'], ['5'], ['100'], ['yirmi'], ['-20']])('VAT %s is refused', (text) => {
    expect(readVatRate(text)).toEqual({ ok: false, problem: 'vatRateInvalid' })
  })

  it('reads desi as a number, zero or more, with two decimals at most', () => {
    expect(readDesi('2,5')).toEqual({ ok: true, value: 2.5 })
    expect(readDesi('0')).toEqual({ ok: true, value: 0 })
    expect(readDesi('3')).toEqual({ ok: true, value: 3 })
    expect(readDesi('-1')).toEqual({ ok: false, problem: 'desiInvalid' })
    expect(readDesi('1,2345')).toEqual({ ok: false, problem: 'desiInvalid' })
    expect(readDesi('iki')).toEqual({ ok: false, problem: 'desiInvalid' })
  })

  it("checks a barcode by Trendyol's rule: 40 characters, letters, digits, . - _", () => {
    expect(readBarcode(' 8690000000001 ')).toEqual({ ok: true, value: '8690000000001' })
    expect(readBarcode('TY-KRM_001.A')).toEqual({ ok: true, value: 'TY-KRM_001.A' })
    expect(readBarcode('A'.repeat(40))).toEqual({ ok: true, value: 'A'.repeat(40) })
    expect(readBarcode('A'.repeat(41))).toEqual({ ok: false, problem: 'barcodeTooLong' })
    expect(readBarcode('8,69E+12')).toEqual({ ok: false, problem: 'barcodeInvalid' })
    expect(readBarcode('KRM 001')).toEqual({ ok: false, problem: 'barcodeInvalid' })
    expect(readBarcode('IŞK004')).toEqual({ ok: false, problem: 'barcodeInvalid' })
    expect(readBarcode('KRM/001')).toEqual({ ok: false, problem: 'barcodeInvalid' })
  })
})

describe('readListingValues', () => {
  it('keeps what reads, reports what does not, and passes empty cells by', () => {
    expect(
      readListingValues({
        barcode: '8690000000001',
        price: '1.299,90',
        listPrice: '1.499,90 TL',
        stock: '',
        vatRate: '%18',
        desi: '  ',
      }),
    ).toEqual({
      values: { barcode: '8690000000001', price: 1299.9, listPrice: 1499.9 },
      problems: [{ field: 'vatRate', problem: 'vatRateInvalid' }],
    })
    expect(readListingValues({})).toEqual({ values: {}, problems: [] })
  })
})
