import { describe, expect, it } from 'vitest'
import { createGenerationRequestSchema } from '#shared/contracts/generations.ts'
import { createRequest } from './create-request.ts'
import { emptyDetailsForm } from './product-details.ts'

const form = {
  imageAssetId: '6b0f3c56-93a4-4c2f-9d38-2a1c8c1f5b11',
  prompt: 'marble countertop',
  ratio: '9:16' as const,
  details: { ...emptyDetailsForm, name: ' Kupa ', brand: '' },
}

/** What every request from `form` carries: the tool, the photo and the trimmed details. */
const sentForAll = { tool: 'product', imageAssetId: form.imageAssetId, details: { name: 'Kupa' } }

describe('the Create form’s request', () => {
  it('asks to keep the product for an image edit when the switch is on', () => {
    const body = createRequest({ ...form, mode: 'image', keepProduct: true })
    expect(body).toEqual({
      ...sentForAll,
      mode: 'image',
      prompt: 'marble countertop',
      aspectRatio: '9:16',
      keepProduct: true,
    })
    expect(createGenerationRequestSchema.parse(body).keepProduct).toBe(true)
  })

  it('leaves it out when the switch is off, and for videos and SEO copy whatever the switch says', () => {
    expect(createRequest({ ...form, mode: 'image', keepProduct: false })).not.toHaveProperty('keepProduct')
    expect(createRequest({ ...form, mode: 'video', keepProduct: true })).not.toHaveProperty('keepProduct')
    const seo = createRequest({ ...form, mode: 'seo', keepProduct: true })
    expect(seo).toEqual({ ...sentForAll, mode: 'seo', prompt: '' })
  })

  it('sends a chosen camera angle with an image edit only, and leaves "match my photo" to the server', () => {
    const top = createRequest({ ...form, mode: 'image', keepProduct: false, view: 'top' })
    expect(top).toMatchObject({ mode: 'image', view: 'top' })
    expect(createGenerationRequestSchema.parse(top).view).toBe('top')
    const auto = createRequest({ ...form, mode: 'image', keepProduct: false, view: 'auto' })
    expect(auto).not.toHaveProperty('view')
    expect(createGenerationRequestSchema.parse(auto).view).toBe('auto')
    expect(createRequest({ ...form, mode: 'video', keepProduct: false, view: 'front' })).not.toHaveProperty(
      'view',
    )
  })

  it('sends colour, the seller’s description and key features, one per line, blank lines left out', () => {
    const body = createRequest({
      ...form,
      mode: 'seo',
      keepProduct: false,
      details: {
        ...emptyDetailsForm,
        name: 'Fincan Takımı',
        color: ' Kırmızı ',
        description: 'El yapımı porselen.\n',
        features: '2 kişilik\n\n  90 ml fincan  \r\nBulaşık makinesinde yıkanabilir\n',
      },
    })
    expect(body.details).toEqual({
      name: 'Fincan Takımı',
      color: 'Kırmızı',
      description: 'El yapımı porselen.',
      features: ['2 kişilik', '90 ml fincan', 'Bulaşık makinesinde yıkanabilir'],
    })
    expect(createGenerationRequestSchema.safeParse(body).success).toBe(true)
  })
})
