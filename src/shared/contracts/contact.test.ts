import { describe, expect, it } from 'vitest'
import { toFieldErrors } from '#shared/validation.ts'
import { contactRequestSchema, inquiryTypes } from './contact.ts'

const minimal = { name: 'Can', email: 'can@example.com', message: 'Hello' }

function fieldErrorsOf(input: unknown) {
  const result = contactRequestSchema.safeParse(input)
  if (result.success) throw new Error('expected the input to be refused')
  return toFieldErrors(result.error, input)
}

describe('contactRequestSchema', () => {
  it('offers exactly the six inquiry types', () => {
    expect([...inquiryTypes]).toEqual([
      'general',
      'enterprise',
      'setup',
      'integration',
      'volume',
      'partnership',
    ])
    for (const inquiryType of inquiryTypes) {
      expect(contactRequestSchema.parse({ ...minimal, inquiryType }).inquiryType).toBe(inquiryType)
    }
  })

  it('fills the defaults: general inquiry, English, empty optional fields', () => {
    expect(contactRequestSchema.parse(minimal)).toEqual({
      ...minimal,
      company: '',
      phone: '',
      inquiryType: 'general',
      locale: 'en',
      website: '',
    })
  })

  it('trims the text fields', () => {
    const parsed = contactRequestSchema.parse({
      name: '  Ayşe Yılmaz ',
      email: ' ayse@example.com  ',
      company: ' Yılmaz Tekstil ',
      phone: ' +90 555 ',
      message: '\n Merhaba \n',
      locale: 'tr',
    })
    expect(parsed).toMatchObject({
      name: 'Ayşe Yılmaz',
      email: 'ayse@example.com',
      company: 'Yılmaz Tekstil',
      phone: '+90 555',
      message: 'Merhaba',
      locale: 'tr',
    })
  })

  it('calls missing and blank required fields required', () => {
    expect(fieldErrorsOf({})).toEqual({ name: 'required', email: 'required', message: 'required' })
    expect(fieldErrorsOf({ name: '   ', email: 'can@example.com', message: ' \n ' })).toEqual({
      name: 'required',
      message: 'required',
    })
  })

  it('refuses a malformed email with the email reason', () => {
    expect(fieldErrorsOf({ ...minimal, email: 'not-an-email' })).toEqual({ email: 'email' })
    expect(fieldErrorsOf({ ...minimal, email: 'a@b' })).toEqual({ email: 'email' })
  })

  it('refuses over-long fields with tooLong, measuring after trimming', () => {
    expect(
      fieldErrorsOf({
        ...minimal,
        name: 'x'.repeat(121),
        company: 'x'.repeat(161),
        phone: 'x'.repeat(41),
        message: 'x'.repeat(5001),
        email: `${'a'.repeat(250)}@example.com`,
      }),
    ).toEqual({ name: 'tooLong', company: 'tooLong', phone: 'tooLong', message: 'tooLong', email: 'tooLong' })
    expect(contactRequestSchema.parse({ ...minimal, name: ` ${'x'.repeat(120)} ` }).name).toHaveLength(120)
  })

  it('refuses an unknown inquiry type or locale as invalid', () => {
    expect(fieldErrorsOf({ ...minimal, inquiryType: 'spam', locale: 'de' })).toEqual({
      inquiryType: 'invalid',
      locale: 'invalid',
    })
  })

  it('passes the honeypot through so the server can spot bots', () => {
    expect(contactRequestSchema.parse({ ...minimal, website: 'http://spam.example' }).website).toBe(
      'http://spam.example',
    )
  })
})
