import { createHash } from 'node:crypto'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import { formatOfflineNote, type OfflineSeparation, type SmallPhoto } from '#shared/offline-note.ts'
import { imageSize, type SceneView, type ViewChoice } from '#shared/scenes.ts'
import type { ImageEditRequest, ImageEditResult, ImageFile, PhotoPlacement } from '../types.ts'
import type { Backdrop } from './canvas.ts'
import { composeOnBackdrop, crispEdgeFrom, placeSubject } from './composite.ts'
import { renderFashionBackdrop, renderReferenceBackdrop } from './fashion-backdrops.ts'
import { viewOf } from './perspective.ts'
import { resultSizeFor } from './result-size.ts'
import { productSceneStage, renderProductScene } from './scene-backgrounds.ts'
import {
  type FashionBackdropId,
  fashionStylePrompt,
  matchFashionStyle,
  matchProductScene,
  productScenePrompt,
  type StudioSceneId,
} from './scene-match.ts'
import { loadPhoto, type Subject, type SubjectDraft, separateSubject } from './separate.ts'
import { throwIfAborted, withImageInput } from './studio-errors.ts'

/** Renders a backdrop, or hands back the same one rendered before (they are deterministic). */
export type BackdropSource = (key: string, render: () => Promise<Backdrop>) => Promise<Backdrop>

const renderFresh: BackdropSource = (_key, render) => render()

/** What an edit works with besides the request: cached backdrops, and the model for busy photos. */
export type EditTools = { backdrops?: BackdropSource; subjects?: SubjectSource; segmenter?: Segmenter }

/**
 * Cuts the subject out, or hands back the cut made before from the same photo: a seller trying
 * scene after scene sends the same photo each time, and its separation (flood fill and model) is
 * the slow half of an edit.
 */
export type SubjectSource = (photoKey: string, cut: () => Promise<Subject>) => Promise<Subject>

const cutFresh: SubjectSource = (_key, cut) => cut()

/** Separates a photo's product into `tools.subjects` ahead of its job (offline studio `prepare`). */
export async function prepareSubject(image: ImageFile, tools: EditTools): Promise<void> {
  await subjectOf(image, tools)
}

/**
 * The photo decoded and separated (a ProviderError 'rejected' when it cannot be read).
 * `onDraft` hears of the cut before it is made, when it is made now and not taken from before.
 */
function subjectOf(
  image: ImageFile,
  tools: EditTools,
  onDraft?: (draft: SubjectDraft) => void,
): Promise<Subject> {
  const key = image.sha256 ?? createHash('sha256').update(image.bytes).digest('hex')
  return (tools.subjects ?? cutFresh)(key, async () => {
    const photo = await withImageInput(() => loadPhoto(image.bytes))
    return separateSubject(photo, tools.segmenter, onDraft)
  })
}

/**
 * The product scene a cut goes on: the view that matches it, how much it is enlarged, and the
 * size and key of the one scene painted for it. Read from the cut, or from its draft (the same
 * size and outline, known before the cut is made).
 */
function scenePlan(
  request: Pick<ImageEditRequest, 'aspectRatio' | 'view'>,
  scene: StudioSceneId,
  outline: Pick<Subject, 'data' | 'width' | 'height' | 'isSeparated'>,
  cutSize: Pick<Subject, 'width' | 'height' | 'isSeparated'>,
) {
  const ratio = request.aspectRatio
  const view = scene === 'white-studio' ? null : viewFor(request.view ?? 'auto', outline)
  // The result is as large as the product's own pixels allow (decision 43): how much it would be
  // enlarged is measured on the scene's stage at the standard size (no painting needed), then
  // one scene is painted at the size chosen.
  const enlargement = enlargementOn({ stage: productSceneStage(scene, ratio, view ?? 'front') }, cutSize)
  const size = resultSizeFor(ratio, enlargement)
  const isStandard = size.width === imageSize[ratio].width
  return {
    view,
    enlargement,
    key: `product:${scene}:${view ?? 'front'}:${ratio}${isStandard ? '' : `:${size.width}x${size.height}`}`,
    paint: () => renderProductScene(scene, ratio, view ?? 'front', isStandard ? undefined : size),
  }
}

/** The product tool: the product cut out and placed on the scene the prompt names. */
export async function editProductImage(
  request: ImageEditRequest,
  signal: AbortSignal,
  tools: EditTools = {},
): Promise<ImageEditResult & { scene: StudioSceneId; view: SceneView | null }> {
  const backdrops = tools.backdrops ?? renderFresh
  const scene = matchProductScene(request.prompt)
  const promptUsed = request.prompt.trim() || productScenePrompt(scene)
  // The view and size are read from the cut, so the scene waits for the separation. But a fresh
  // cut's draft comes while the model still runs in its process: the scene is painted meanwhile
  // (the white studio takes no time to paint), and used when the cut turns out as drafted.
  const drafted: { scene?: { key: string; backdrop: Promise<Backdrop> } } = {}
  const subject = await subjectOf(request.image, tools, (draft) => {
    if (scene === 'white-studio') return
    const plan = scenePlan(request, scene, draft.outline, {
      width: draft.cutWidth,
      height: draft.cutHeight,
      isSeparated: true,
    })
    const backdrop = backdrops(plan.key, plan.paint)
    // A draft the cut overrules leaves its scene unused: its end must not go unhandled.
    backdrop.catch(() => undefined)
    drafted.scene = { key: plan.key, backdrop }
  })
  throwIfAborted(signal)
  const { view, enlargement, key, paint } = scenePlan(request, scene, subject, subject)
  const backdrop = await (drafted.scene?.key === key ? drafted.scene.backdrop : backdrops(key, paint))
  throwIfAborted(signal)
  const bytes = await composeOnBackdrop(backdrop, subject)
  const smallPhoto = smallPhotoOf(subject, enlargement)
  return {
    image: { bytes, mime: 'image/jpeg' },
    description: formatOfflineNote({
      subject: 'product',
      separation: separationOf(subject),
      scene,
      ...(view ? { view } : {}),
      ...(smallPhoto ? { smallPhoto } : {}),
    }),
    promptUsed,
    placement: photoPlacement(backdrop, subject),
    scene,
    view,
  }
}

/** The seller's choice of view, or for 'auto' the one that matches the photo's camera. */
function viewFor(
  choice: ViewChoice,
  subject: Pick<Subject, 'data' | 'width' | 'height' | 'isSeparated'>,
): SceneView {
  return choice === 'auto' ? viewOf(subject) : choice
}

/** The fashion tool: the garment on the style's backdrop, or in front of the reference photo. */
export async function editFashionImage(
  request: ImageEditRequest,
  signal: AbortSignal,
  tools: EditTools = {},
): Promise<ImageEditResult & { scene: FashionBackdropId }> {
  const backdrops = tools.backdrops ?? renderFresh
  const reference = request.reference
  const style = matchFashionStyle(request.prompt)
  const scene: FashionBackdropId = reference ? 'reference' : style
  const promptUsed =
    request.prompt.trim() ||
    (reference ? 'garment in front of the reference photo' : fashionStylePrompt(style))
  const backdropPromise = reference
    ? withImageInput(() => renderReferenceBackdrop(reference.bytes, request.aspectRatio))
    : backdrops(`fashion:${style}:${request.aspectRatio}`, () =>
        renderFashionBackdrop(style, request.aspectRatio),
      )
  // The garment goes through the same separation as a product: a plain backdrop, or the model.
  const [subject, backdrop] = await Promise.all([subjectOf(request.image, tools), backdropPromise])
  throwIfAborted(signal)
  const bytes = await composeOnBackdrop(backdrop, subject)
  // Fashion results stay at the standard size; a photo too small for it is still named.
  const smallPhoto = smallPhotoOf(subject, enlargementOn(backdrop, subject))
  return {
    image: { bytes, mime: 'image/jpeg' },
    description: formatOfflineNote({
      subject: 'garment',
      separation: separationOf(subject),
      scene,
      ...(smallPhoto ? { smallPhoto } : {}),
    }),
    promptUsed,
    scene,
  }
}

/** How much larger than its cut's own pixels the subject is drawn on `backdrop`. */
function enlargementOn(
  backdrop: Pick<Backdrop, 'stage'>,
  subject: Pick<Subject, 'width' | 'height' | 'isSeparated'>,
): number {
  const placed = placeSubject(backdrop, subject)
  return Math.max(placed.width / subject.width, placed.height / subject.height)
}

/**
 * When the product had to be enlarged past its own pixels as far as the crisp-edge step
 * (composite.ts), the note says so with what would help: the product's longer side in the photo,
 * and the photo's longer side that would fill the frame without enlarging, rounded up to 100 px.
 */
export function smallPhotoOf(subject: Subject, enlargement: number): SmallPhoto | null {
  if (enlargement < crispEdgeFrom) return null
  const photoSide = Math.max(subject.box.photoWidth, subject.box.photoHeight) * enlargement
  return {
    productSide: Math.max(subject.width, subject.height),
    enlargement: Math.round(enlargement * 10) / 10,
    photoSide: Math.ceil(photoSide / 100) * 100,
  }
}

/**
 * Where the whole photo lands on the result, from where its cut went: the studio moves and
 * scales the product, so "keep my product exactly" must lay the original back there, not where
 * the photo would sit fitted into the frame.
 */
export function photoPlacement(backdrop: Backdrop, subject: Subject): PhotoPlacement {
  const placed = placeSubject(backdrop, subject)
  const scale = placed.width / subject.width
  return {
    left: placed.left - subject.box.left * scale,
    top: placed.top - subject.box.top * scale,
    width: subject.box.photoWidth * scale,
    height: subject.box.photoHeight * scale,
  }
}

/**
 * How the subject was separated, for the note that says plainly what the offline studio did (so
 * nobody mistakes the result for generative AI). The note is stored language-neutral and put
 * into words by the web app in the reader's language (shared/offline-note.ts).
 */
function separationOf(subject: Subject): OfflineSeparation {
  return subject.separatedBy ?? 'card'
}
