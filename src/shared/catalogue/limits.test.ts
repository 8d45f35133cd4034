import { describe, expect, it } from 'vitest'
import { enMessages } from '#shared/i18n/locales/en/index.ts'
import { trMessages } from '#shared/i18n/locales/tr/index.ts'
import { formatNumber } from '#shared/i18n/translate.ts'
import { catalogueLimits } from './limits.ts'
import { photoEntryProblemCodes, rowProblemCodes } from './row-problems.ts'

const MB = 1024 * 1024

describe('catalogue limits', () => {
  it('are the ones the catalogue issue sets', () => {
    expect(catalogueLimits.maxProductRows).toBe(1_000)
    expect(catalogueLimits.maxListFileBytes).toBe(10 * MB)
    expect(catalogueLimits.maxFieldChars).toBe(5_000)
    expect(catalogueLimits.photoZip.maxEntries).toBe(10_000)
    expect(catalogueLimits.photoZip.maxPhotoBytes).toBe(10 * MB)
  })

  // The error messages name the limits in words; this keeps the words and the numbers together.
  it.each([
    ['CATALOGUE_TOO_MANY_ROWS', catalogueLimits.maxProductRows],
    ['CATALOGUE_FILE_TOO_COMPLEX', catalogueLimits.maxListLines],
    ['CATALOGUE_FILE_TOO_COMPLEX', catalogueLimits.maxProductRows],
    ['CATALOGUE_ZIP_TOO_MANY_ENTRIES', catalogueLimits.photoZip.maxEntries],
  ] as const)('%s names %d in both languages', (code, limit) => {
    expect(enMessages.errors[code]).toContain(formatNumber('en', limit))
    expect(trMessages.errors[code]).toContain(formatNumber('tr', limit))
  })

  it('the file size messages name the byte limits', () => {
    expect(enMessages.errors.CATALOGUE_FILE_TOO_LARGE).toContain(`${catalogueLimits.maxListFileBytes / MB}MB`)
    expect(enMessages.errors.CATALOGUE_ZIP_TOO_LARGE).toContain(
      `${catalogueLimits.photoZip.maxUncompressedBytes / (1024 * MB)}GB`,
    )
    expect(enMessages.catalogue.rowProblems.fieldTooLong).toContain(
      formatNumber('en', catalogueLimits.maxFieldChars),
    )
    expect(trMessages.catalogue.rowProblems.fieldTooLong).toContain(
      formatNumber('tr', catalogueLimits.maxFieldChars),
    )
  })
})

describe('catalogue problem codes', () => {
  it('each have a message in both languages', () => {
    for (const messages of [enMessages, trMessages]) {
      expect(Object.keys(messages.catalogue.rowProblems).sort()).toEqual([...rowProblemCodes].sort())
      expect(Object.keys(messages.catalogue.photoProblems).sort()).toEqual([...photoEntryProblemCodes].sort())
    }
  })
})
