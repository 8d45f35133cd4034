import { describe, expect, it } from 'vitest'
import { detailsFromForm, emptyDetailsForm, featuresProblem, isDetailsFormValid } from './product-details.ts'

describe('the product details form', () => {
  it('takes up to six key features of up to 100 characters', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].join('\n')
    expect(featuresProblem(six)).toBeNull()
    expect(featuresProblem(`${six}\ng`)).toEqual({ kind: 'tooMany', count: 7 })
    expect(featuresProblem(`kısa\n${'x'.repeat(100)}`)).toBeNull()
    expect(featuresProblem(`kısa\n\n${'x'.repeat(101)}`)).toEqual({ kind: 'tooLong', line: 2 })
    // Blank lines are not features, so they count toward neither limit.
    expect(featuresProblem(`${six}\n\n   \n`)).toBeNull()
  })

  it('agrees with the shared schema on what can be sent', () => {
    expect(isDetailsFormValid({ ...emptyDetailsForm, features: 'a\nb' })).toBe(true)
    expect(isDetailsFormValid({ ...emptyDetailsForm, features: 'a\nb\nc\nd\ne\nf\ng' })).toBe(false)
    expect(isDetailsFormValid({ ...emptyDetailsForm, features: 'y'.repeat(101) })).toBe(false)
    expect(detailsFromForm(emptyDetailsForm)).toEqual({})
  })
})
