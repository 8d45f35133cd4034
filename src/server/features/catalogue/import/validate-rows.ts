import {
  type CatalogueField,
  type ColumnMapping,
  catalogueFields,
  imageFields,
  type ListingField,
  listingFields,
  missingRequiredFields,
  type TextField,
  textFields,
} from '#shared/catalogue/columns.ts'
import { type CatalogueLimits, catalogueLimits } from '#shared/catalogue/limits.ts'
import { type ListingValues, readListingValues } from '#shared/catalogue/listing-values.ts'
import type { RowProblem, RowProblemCode } from '#shared/catalogue/row-problems.ts'
import { AppError } from '#shared/errors.ts'
import { photoReferencesOf } from './photo-refs.ts'
import { foldName, type PhotoFinder, type PhotoZipEntry } from './photo-zip.ts'
import type { ListRow } from './read-product-list.ts'

/** A photo of a row that passed validation: a ZIP entry, or an address still to be fetched. */
export type PhotoRef = { kind: 'zip'; reference: string; entry: PhotoZipEntry } | { kind: 'url'; url: string }

export type CatalogueRow = Record<TextField, string> & {
  line: number
  /** The listing columns' values that read well (a bad one is a problem and left out). */
  listing: ListingValues
  /** Usable photos in column order, at most `maxImagesPerRow`, without repeats. */
  photos: PhotoRef[]
  /** The http(s) addresses among `photos`: what the remote fetch has to get (and check) for this row. */
  imageUrls: string[]
  problems: RowProblem[]
  /** No problems: the row can become a product. */
  isValid: boolean
}

export type RowValidation = {
  rows: CatalogueRow[]
  /** Every row's problems, by line. */
  problems: RowProblem[]
  validCount: number
  invalidCount: number
}

const maxValueChars = 200

/**
 * Checks each row under a confirmed mapping, with the photo ZIP if one was given (`null` when the
 * photos are addresses in the list). A row is bad for an empty name or SKU, a SKU another row has
 * too (both rows reported), no photo, a photo not in (or not usable from) the ZIP, a photo file
 * named with no ZIP given, an image address that is not http(s), a cell over the length limit, a
 * listing value that does not read (barcode, prices, stock, VAT rate, desi: listing-values.ts), or
 * a barcode another row has too. A mapping without SKU or name, or pointing past the columns, is VALIDATION_FAILED.
 */
export function validateRows(
  list: { headers: readonly string[]; rows: readonly ListRow[] },
  mapping: ColumnMapping,
  photos: PhotoFinder | null,
  limits: CatalogueLimits = catalogueLimits,
): RowValidation {
  checkMapping(mapping, list.headers.length)
  const fieldOfColumn = new Map<number, CatalogueField>()
  for (const field of catalogueFields) {
    const column = mapping[field]
    if (column !== undefined && !fieldOfColumn.has(column)) fieldOfColumn.set(column, field)
  }

  const rows = list.rows.map((row) => validateRow(row, mapping, fieldOfColumn, photos, limits))
  markDuplicates(rows, 'sku', mapping.sku, (row) => row.sku)
  // A barcode that is the SKU's own column is already reported as a duplicate SKU.
  if (mapping.barcode !== mapping.sku) {
    markDuplicates(rows, 'barcode', mapping.barcode, (row) => row.listing.barcode ?? '')
  }

  const problems = rows.flatMap((row) => row.problems)
  let validCount = 0
  for (const row of rows) {
    row.isValid = row.problems.length === 0
    if (row.isValid) validCount += 1
  }
  return { rows, problems, validCount, invalidCount: rows.length - validCount }
}

function checkMapping(mapping: ColumnMapping, columnCount: number): void {
  const fields: Record<string, string> = {}
  for (const field of missingRequiredFields(mapping)) fields[`mapping.${field}`] = 'required'
  for (const field of catalogueFields) {
    const column = mapping[field]
    if (column !== undefined && (!Number.isInteger(column) || column < 0 || column >= columnCount)) {
      fields[`mapping.${field}`] = 'invalid'
    }
  }
  if (Object.keys(fields).length > 0)
    throw new AppError('VALIDATION_FAILED', 'bad column mapping', { fields })
}

function validateRow(
  row: ListRow,
  mapping: ColumnMapping,
  fieldOfColumn: Map<number, CatalogueField>,
  finder: PhotoFinder | null,
  limits: CatalogueLimits,
): CatalogueRow {
  const problems: RowProblem[] = []
  const problem = (code: RowProblemCode, extra: Omit<RowProblem, 'line' | 'code'> = {}) => {
    const value =
      extra.value === undefined ? {} : { value: Array.from(extra.value).slice(0, maxValueChars).join('') }
    problems.push({ line: row.line, code, ...extra, ...value })
  }
  const text = Object.fromEntries(
    textFields.map((field) => {
      const column = mapping[field]
      return [field, column === undefined ? '' : (row.cells[column] ?? '')]
    }),
  ) as Record<TextField, string>

  if (text.sku === '') problem('skuEmpty', { field: 'sku', column: mapping.sku })
  if (text.name === '') problem('nameEmpty', { field: 'name', column: mapping.name })

  const listingCells: Partial<Record<ListingField, string>> = {}
  for (const field of listingFields) {
    const column = mapping[field]
    if (column !== undefined) listingCells[field] = row.cells[column] ?? ''
  }
  const listing = readListingValues(listingCells)
  for (const { field, problem: code } of listing.problems) {
    problem(code, { field, column: mapping[field], value: (listingCells[field] ?? '').trim() })
  }

  const photos: PhotoRef[] = []
  const seen = new Set<string>()
  let named = 0
  for (const field of imageFields) {
    const column = mapping[field]
    if (column === undefined) continue
    for (const reference of photoReferencesOf(row.cells[column] ?? '', row.links?.get(column))) {
      named += 1
      const at = { field, column }
      if (reference.kind === 'invalidUrl') {
        problem('imageUrlInvalid', { ...at, value: reference.value })
      } else if (reference.kind === 'url') {
        if (!seen.has(reference.url)) {
          seen.add(reference.url)
          photos.push({ kind: 'url', url: reference.url })
        }
      } else if (!finder) {
        problem('photoNoZip', { ...at, value: reference.name })
      } else {
        const found = finder.find(reference.name)
        if (found.status === 'missing') problem('photoNotInZip', { ...at, value: reference.name })
        else if (found.status === 'ambiguous') problem('photoAmbiguous', { ...at, value: reference.name })
        else if (found.entry.problem === 'tooLarge')
          problem('photoTooLarge', { ...at, value: reference.name })
        else if (found.entry.problem) problem('photoUnreadable', { ...at, value: reference.name })
        else if (!seen.has(`zip:${found.entry.path}`)) {
          seen.add(`zip:${found.entry.path}`)
          photos.push({ kind: 'zip', reference: reference.name, entry: found.entry })
        }
      }
    }
  }
  if (named === 0) problem('photoMissing')

  for (const column of row.tooLong) {
    const field = fieldOfColumn.get(column)
    problem('fieldTooLong', field ? { field, column } : { column })
  }

  // Marketplaces take this many photos; more named in a row are left out, not an error.
  const kept = photos.slice(0, limits.maxImagesPerRow)
  return {
    line: row.line,
    ...text,
    listing: listing.values,
    photos: kept,
    imageUrls: kept.flatMap((photo) => (photo.kind === 'url' ? [photo.url] : [])),
    problems,
    isValid: false,
  }
}

/**
 * Rows sharing a SKU or a barcode, compared trimmed and without case (an export folder per SKU
 * must not collide on Windows; a marketplace keys a listing by its barcode): every such row is
 * reported with the others' lines.
 */
function markDuplicates(
  rows: CatalogueRow[],
  field: 'sku' | 'barcode',
  column: number | undefined,
  keyOf: (row: CatalogueRow) => string,
): void {
  const code = field === 'sku' ? 'skuDuplicate' : 'barcodeDuplicate'
  const linesByValue = new Map<string, number[]>()
  for (const row of rows) {
    const value = keyOf(row)
    if (value === '') continue
    const key = foldName(value)
    const lines = linesByValue.get(key)
    if (lines) lines.push(row.line)
    else linesByValue.set(key, [row.line])
  }
  for (const row of rows) {
    const value = keyOf(row)
    if (value === '') continue
    const lines = linesByValue.get(foldName(value)) ?? []
    if (lines.length < 2) continue
    row.problems.push({
      line: row.line,
      code,
      field,
      ...(column === undefined ? {} : { column }),
      value,
      otherLines: lines.filter((line) => line !== row.line),
    })
  }
}
