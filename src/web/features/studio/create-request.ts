import type { CreateGenerationRequest, GenerationMode } from '#shared/contracts/generations.ts'
import type { AspectRatio, ViewChoice } from '#shared/scenes.ts'
import { type DetailsForm, detailsFromForm } from './product-details.ts'

/**
 * The Create form's request: SEO copy has no prompt or ratio, and "keep my product exactly" and
 * a chosen camera angle are sent only for an image edit (the server refuses the first for videos
 * and SEO copy, and ignores the second); "match my photo" is the server's default, left out.
 */
export function createRequest(form: {
  mode: GenerationMode
  imageAssetId: string
  prompt: string
  ratio: AspectRatio
  details: DetailsForm
  keepProduct: boolean
  view?: ViewChoice
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
    ...(form.mode === 'image' && form.view && form.view !== 'auto' ? { view: form.view } : {}),
  }
}
