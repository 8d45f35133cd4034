import type { ImageEditRequest, ImageEditResult } from '../types.ts'
import type { Backdrop } from './canvas.ts'
import { composeOnBackdrop } from './composite.ts'
import { renderFashionBackdrop, renderReferenceBackdrop } from './fashion-backdrops.ts'
import { renderProductScene } from './scene-backgrounds.ts'
import {
  type FashionBackdropId,
  fashionStylePrompt,
  matchFashionStyle,
  matchProductScene,
  productScenePrompt,
  type StudioSceneId,
} from './scene-match.ts'
import { loadPhoto, type Subject, separateSubject } from './separate.ts'
import { throwIfAborted, withImageInput } from './studio-errors.ts'

/** Renders a backdrop, or hands back the same one rendered before (they are deterministic). */
export type BackdropSource = (key: string, render: () => Promise<Backdrop>) => Promise<Backdrop>

const renderFresh: BackdropSource = (_key, render) => render()

/** The product tool: the product cut out and placed on the scene the prompt names. */
export async function editProductImage(
  request: ImageEditRequest,
  signal: AbortSignal,
  backdrops: BackdropSource = renderFresh,
): Promise<ImageEditResult & { scene: StudioSceneId }> {
  const scene = matchProductScene(request.prompt)
  const promptUsed = request.prompt.trim() || productScenePrompt(scene)
  const photo = await withImageInput(() => loadPhoto(request.image.bytes))
  throwIfAborted(signal)
  const [subject, backdrop] = await Promise.all([
    separateSubject(photo),
    backdrops(`product:${scene}:${request.aspectRatio}`, () =>
      renderProductScene(scene, request.aspectRatio),
    ),
  ])
  throwIfAborted(signal)
  const bytes = await composeOnBackdrop(backdrop, subject)
  return {
    image: { bytes, mime: 'image/jpeg' },
    description: describeResult(subject, 'product', `the "${productScenePrompt(scene)}" scene`, scene),
    promptUsed,
    scene,
  }
}

/** The fashion tool: the garment on the style's backdrop, or in front of the reference photo. */
export async function editFashionImage(
  request: ImageEditRequest,
  signal: AbortSignal,
  backdrops: BackdropSource = renderFresh,
): Promise<ImageEditResult & { scene: FashionBackdropId }> {
  const reference = request.reference
  const style = matchFashionStyle(request.prompt)
  const scene: FashionBackdropId = reference ? 'reference' : style
  const promptUsed =
    request.prompt.trim() ||
    (reference ? 'garment in front of the reference photo' : fashionStylePrompt(style))
  const photo = await withImageInput(() => loadPhoto(request.image.bytes))
  throwIfAborted(signal)
  const backdropPromise = reference
    ? withImageInput(() => renderReferenceBackdrop(reference.bytes, request.aspectRatio))
    : backdrops(`fashion:${style}:${request.aspectRatio}`, () =>
        renderFashionBackdrop(style, request.aspectRatio),
      )
  const [subject, backdrop] = await Promise.all([separateSubject(photo), backdropPromise])
  throwIfAborted(signal)
  const bytes = await composeOnBackdrop(backdrop, subject)
  const where = reference
    ? 'in front of your reference photo (softened)'
    : `on the "${fashionStylePrompt(style)}" backdrop`
  return {
    image: { bytes, mime: 'image/jpeg' },
    description: describeResult(subject, 'garment', where, scene),
    promptUsed,
    scene,
  }
}

/** Says plainly what the offline studio did, so nobody mistakes the result for AI work. */
function describeResult(subject: Subject, what: 'product' | 'garment', where: string, scene: string): string {
  const placed = where.startsWith('on ') || where.startsWith('in ') ? where : `on ${where}`
  const how = subject.isSeparated
    ? `the ${what} was cut out from its plain backdrop and placed ${placed}`
    : `the photo's backdrop could not be separated from the ${what}, so the whole photo was placed as a card ${placed}`
  return `Made by Vitrin's offline studio, not by AI: ${how}. (scene: ${scene})`
}
