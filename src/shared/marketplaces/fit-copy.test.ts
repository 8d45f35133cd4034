import { describe, expect, it } from 'vitest'
import { fitCopy, fitToLength } from './fit-copy.ts'
import { getProfile } from './profiles.ts'
import { codePointLength } from './text.ts'

describe('fitting copy to a marketplace', () => {
  it('cuts at a word boundary within the limit, counting code points', () => {
    const title = `${'Çok şık deri cüzdan '.repeat(6)}son`
    const fitted = fitToLength(title, 100)
    expect(codePointLength(fitted)).toBeLessThanOrEqual(100)
    expect(title.startsWith(fitted)).toBe(true)
    expect(title[fitted.length]).toBe(' ')
  })

  it('leaves text within the limit as it is, line breaks included', () => {
    expect(fitToLength('  Satır bir\nSatır iki  ', 100)).toBe('Satır bir\nSatır iki')
  })

  it('never ends on half of an emoji when it must cut without a space', () => {
    const fitted = fitToLength(`${'a'.repeat(99)}😀😀`, 100)
    expect(fitted).toBe('a'.repeat(99))
  })

  it("uses the profile's title and description limits, and leaves text alone where none is published", () => {
    const long = 'kelime '.repeat(40).trim()
    expect(
      codePointLength(fitCopy(getProfile('trendyol'), { title: long, description: 'x' }).title),
    ).toBeLessThanOrEqual(100)
    expect(fitCopy(getProfile('shopify'), { title: long, description: long })).toEqual({
      title: long,
      description: long,
    })
  })
})
