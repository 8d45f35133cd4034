import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isSafeText, safeText, toFieldErrors, withoutUnsafeText } from './validation.ts'

function fieldErrorsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input)
  if (result.success) throw new Error('expected the input to be refused')
  return toFieldErrors(result.error, input)
}

describe('toFieldErrors', () => {
  const schema = z.object({
    name: z.string().trim().min(1),
    email: z.email(),
    bio: z.string().max(5),
    age: z.number().min(0).optional(),
    address: z.object({ city: z.string().min(1) }),
  })

  it('gives one reason per field, keyed by dotted path', () => {
    expect(
      fieldErrorsOf(schema, { name: '   ', email: 'nope', bio: 'too long', age: -1, address: { city: '' } }),
    ).toEqual({
      name: 'required',
      email: 'email',
      bio: 'tooLong',
      age: 'invalid',
      'address.city': 'required',
    })
  })

  it('calls a missing field required', () => {
    expect(fieldErrorsOf(schema, { bio: '', age: 1, address: {} })).toEqual({
      name: 'required',
      email: 'required',
      'address.city': 'required',
    })
  })

  it('keeps the first issue of a field', () => {
    const twoRules = z.object({ code: z.string().min(1).regex(/^\d+$/) })
    expect(fieldErrorsOf(twoRules, { code: '' })).toEqual({ code: 'required' })
  })

  it('names a failure of the whole value _root', () => {
    expect(fieldErrorsOf(z.string().regex(/^\d+$/), 'ab')).toEqual({ _root: 'invalid' })
  })

  // BUG (src/shared/validation.ts, reasonOf): zod 4 leaves `issue.input` out of issues unless the
  // parse is called with `reportInput: true`, so `issue.input === undefined` holds for every
  // invalid_type issue and a value of the wrong type (a number for a name) is reported as
  it('calls a present value of the wrong type invalid, not required', () => {
    expect(
      fieldErrorsOf(schema, { name: 42, email: 'a@example.com', bio: '', age: 'x', address: { city: 'x' } }),
    ).toEqual({ name: 'invalid', age: 'invalid' })
  })

  it('calls a string under a minimum above one tooShort, not required', () => {
    expect(fieldErrorsOf(z.object({ code: z.string().min(6) }), { code: 'abc' })).toEqual({
      code: 'tooShort',
    })
  })

  it('calls a number out of range invalid', () => {
    expect(fieldErrorsOf(z.object({ n: z.number().min(1) }), { n: 0 })).toEqual({ n: 'invalid' })
  })

  it('names each field a strict object does not know, under its own path, as unknown', () => {
    const strict = z.strictObject({
      mode: z.string(),
      details: z.strictObject({ name: z.string() }).optional(),
    })
    expect(
      fieldErrorsOf(strict, {
        mode: 'image',
        aspect_ratio: '9:16',
        size: 2,
        details: { name: 'a', colour: 'red' },
      }),
    ).toEqual({ aspect_ratio: 'unknown', size: 'unknown', 'details.colour': 'unknown' })
  })
})

describe('safe text', () => {
  it('refuses NUL, other control characters and lone surrogates, keeping tab, CR and LF', () => {
    for (const bad of ['a\u0000b', 'a\u0007b', 'a\u001bb', 'a\u007fb', 'a\ud800b', 'a\udc00b', '\ud83d']) {
      expect(isSafeText(bad), JSON.stringify(bad)).toBe(false)
    }
    for (const good of ['', 'Merhaba dünya', 'line\r\n\tnext', 'emoji 😀 ok', 'Ğüşiöç']) {
      expect(isSafeText(good), JSON.stringify(good)).toBe(true)
    }
    expect(withoutUnsafeText('a\u0000b\ud800c\td')).toBe('abc\td')
  })

  it('names the field with the invalid reason', () => {
    const schema = z.object({ note: safeText().trim().max(10) })
    expect(fieldErrorsOf(schema, { note: 'x\u0000' })).toEqual({ note: 'invalid' })
    expect(schema.parse({ note: '  ok  ' })).toEqual({ note: 'ok' })
  })
})
