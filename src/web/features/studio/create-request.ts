import type { CreateGenerationRequest, GenerationMode } from '#shared/contracts/generations.ts'
import type { AspectRatio } from '#shared/scenes.ts'
import { type DetailsForm, detailsFromForm } from './product-details.ts'

/**
 * The Create form's request: SEO copy has no prompt or ratio, and "keep my product exactly" is
 * sent only for an image edit (the server refuses it for videos and SEO copy).
 */
export function createRequest(form: {
  mode: GenerationMode
  imageAssetId: string
  prompt: string
  ratio: AspectRatio
  details: DetailsForm
  keepProduct: boolean
}): CreateGenerationRequest {
  const filled = detailsFromForm(form.details)
  return {
    tool: 'product',
    mode: form.mode,
    imageAssetId: form.imageAssetId,
    prompt: form.mode === 'seo' ? '' : form.prompt,
    ...(form.mode === 'seo' ? {} : { aspectRatio: form.ratio }),
    ...(Object.keys(filled).length > 0 ? { details: filled } : {}),
    ...(form.mode === 'image' && form.keepProduct ? { keepProduct: true } : {}),
  }
}
