import {
  type FashionStyleId,
  fashionStyles,
  type ProductSceneId,
  productScenes,
  type SceneView,
  sceneViews,
} from './scenes.ts'

// What the offline studio did to make an image, stored as the result's description in a
// language-neutral form, so the web app can say it in whichever language the user reads
// (locale keys studio.result.offlineNote.*). A job does not know its user's language, and the
// reader may switch languages later; fal's descriptions are the model's own words and stay text.

/** How the subject was separated: along a plain backdrop (or its own transparency), by the model, or not at all. */
export type OfflineSeparation = 'backdrop' | 'model' | 'card'

/**
 * The photo was too small for the result (decision 43): its product, `productSide` px on its
 * longer side, was drawn `enlargement` times larger; a photo `photoSide` px on its longer side
 * would need none.
 */
export type SmallPhoto = { productSide: number; enlargement: number; photoSide: number }

export type OfflineNote =
  | {
      subject: 'product'
      separation: OfflineSeparation
      scene: ProductSceneId | 'neutral-studio'
      /** The view the scene was drawn in (decision 42); absent for the white studio and older notes. */
      view?: SceneView
      smallPhoto?: SmallPhoto
    }
  /** `reference`: in front of the user's reference photo. */
  | {
      subject: 'garment'
      separation: OfflineSeparation
      scene: FashionStyleId | 'reference'
      smallPhoto?: SmallPhoto
    }

const prefix = 'offline-studio:v1'
const separations: readonly string[] = ['backdrop', 'model', 'card']
const productSceneIds: readonly string[] = [...productScenes.map((s) => s.id), 'neutral-studio']
const fashionSceneIds: readonly string[] = [...fashionStyles.map((s) => s.id), 'reference']
const views: readonly string[] = sceneViews

/**
 * The description stored for an offline image, e.g. `offline-studio:v1:product:model:wood:top`
 * (the view next, for product scenes drawn in one; notes written before views had none), and
 * last, for a too-small photo, e.g. `…:wood:top:small/410/2.6/1600`.
 */
export function formatOfflineNote(note: OfflineNote): string {
  const view = note.subject === 'product' && note.view ? `:${note.view}` : ''
  const base = `${prefix}:${note.subject}:${note.separation}:${note.scene}${view}`
  if (!note.smallPhoto) return base
  const { productSide, enlargement, photoSide } = note.smallPhoto
  return `${base}:small/${Math.round(productSide)}/${enlargement.toFixed(1)}/${Math.round(photoSide)}`
}

const smallPattern = /^small\/(\d+)\/(\d+\.\d)\/(\d+)$/

function parseSmallPhoto(text: string): SmallPhoto | null {
  const match = smallPattern.exec(text)
  if (!match) return null
  return { productSide: Number(match[1]), enlargement: Number(match[2]), photoSide: Number(match[3]) }
}

/** The note inside a stored description, or null for any other text (fal's, or older results). */
export function parseOfflineNote(description: string | null | undefined): OfflineNote | null {
  if (!description?.startsWith(`${prefix}:`)) return null
  const [subject, separation, scene, ...extras] = description.slice(prefix.length + 1).split(':')
  if (!separation || !scene || !separations.includes(separation)) return null
  // The small-photo part, when there is one, comes last.
  const smallPhoto = extras.length > 0 ? parseSmallPhoto(extras.at(-1) ?? '') : null
  if (smallPhoto) extras.pop()
  const small = smallPhoto ? { smallPhoto } : {}
  const [view, ...rest] = extras
  if (rest.length > 0) return null
  const how = separation as OfflineSeparation
  if (subject === 'product' && productSceneIds.includes(scene)) {
    const product = {
      subject: 'product' as const,
      separation: how,
      scene: scene as ProductSceneId | 'neutral-studio',
      ...small,
    }
    if (view === undefined) return product
    return views.includes(view) ? { ...product, view: view as SceneView } : null
  }
  if (view !== undefined) return null
  if (subject === 'garment' && fashionSceneIds.includes(scene)) {
    return { subject, separation: how, scene: scene as FashionStyleId | 'reference', ...small }
  }
  return null
}
