import { describe, expect, it } from 'vitest'
import { extractJsonObject } from './parse-json.ts'

describe('extractJsonObject', () => {
  it('parses a reply that is JSON', () => {
    expect(extractJsonObject(' {"title":"Kupa","keywords":["a"]} ')).toEqual({
      title: 'Kupa',
      keywords: ['a'],
    })
  })

  it('finds the first balanced object in prose and code fences', () => {
    const reply =
      'İşte içerik:\n```json\n{"title":"Kupa {özel}","nested":{"a":1}}\n```\nSonra {başka} bir şey.'
    expect(extractJsonObject(reply)).toEqual({ title: 'Kupa {özel}', nested: { a: 1 } })
  })

  it('skips braces that are not JSON and keeps looking', () => {
    expect(extractJsonObject('Not {this} but {"title":"that"}')).toEqual({ title: 'that' })
  })

  it('handles escaped quotes inside strings', () => {
    expect(extractJsonObject('x {"title":"5\\" \\"ekran\\" }"} y')).toEqual({ title: '5" "ekran" }' })
  })

  it('returns undefined when there is no object', () => {
    expect(extractJsonObject('Üzgünüm, yapamam.')).toBeUndefined()
    expect(extractJsonObject('{"title": "unterminated"')).toBeUndefined()
    expect(extractJsonObject('')).toBeUndefined()
  })
})
