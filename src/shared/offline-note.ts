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

export type OfflineNote =
  | {
      subject: 'product'
      separation: OfflineSeparation
      scene: ProductSceneId | 'neutral-studio'
      /** The view the scene was drawn in (decision 42); absent for the white studio and older notes. */
      view?: SceneView
    }
  /** `reference`: in front of the user's reference photo. */
  | { subject: 'garment'; separation: OfflineSeparation; scene: FashionStyleId | 'reference' }

const prefix = 'offline-studio:v1'
const separations: readonly string[] = ['backdrop', 'model', 'card']
const productSceneIds: readonly string[] = [...productScenes.map((s) => s.id), 'neutral-studio']
const fashionSceneIds: readonly string[] = [...fashionStyles.map((s) => s.id), 'reference']
const views: readonly string[] = sceneViews

/**
 * The description stored for an offline image, e.g. `offline-studio:v1:product:model:wood:top`
 * (the view last, for product scenes drawn in one; notes written before views had none).
 */
export function formatOfflineNote(note: OfflineNote): string {
  const view = note.subject === 'product' && note.view ? `:${note.view}` : ''
  return `${prefix}:${note.subject}:${note.separation}:${note.scene}${view}`
}

/** The note inside a stored description, or null for any other text (fal's, or older results). */
export function parseOfflineNote(description: string | null | undefined): OfflineNote | null {
  if (!description?.startsWith(`${prefix}:`)) return null
  const [subject, separation, scene, view, ...rest] = description.slice(prefix.length + 1).split(':')
  if (rest.length > 0 || !separation || !scene || !separations.includes(separation)) return null
  const how = separation as OfflineSeparation
  if (subject === 'product' && productSceneIds.includes(scene)) {
    const product = {
      subject: 'product' as const,
      separation: how,
      scene: scene as ProductSceneId | 'neutral-studio',
    }
    if (view === undefined) return product
    return views.includes(view) ? { ...product, view: view as SceneView } : null
  }
  if (view !== undefined) return null
  if (subject === 'garment' && fashionSceneIds.includes(scene)) {
    return { subject, separation: how, scene: scene as FashionStyleId | 'reference' }
  }
  return null
}
