import { type FashionStyleId, fashionStyles, type ProductSceneId, productScenes } from './scenes.ts'

// What the offline studio did to make an image, stored as the result's description in a
// language-neutral form, so the web app can say it in whichever language the user reads
// (locale keys studio.result.offlineNote.*). A job does not know its user's language, and the
// reader may switch languages later; fal's descriptions are the model's own words and stay text.

/** How the subject was separated: along a plain backdrop (or its own transparency), by the model, or not at all. */
export type OfflineSeparation = 'backdrop' | 'model' | 'card'

export type OfflineNote =
  | { subject: 'product'; separation: OfflineSeparation; scene: ProductSceneId | 'neutral-studio' }
  /** `reference`: in front of the user's reference photo. */
  | { subject: 'garment'; separation: OfflineSeparation; scene: FashionStyleId | 'reference' }

const prefix = 'offline-studio:v1'
const separations: readonly string[] = ['backdrop', 'model', 'card']
const productSceneIds: readonly string[] = [...productScenes.map((s) => s.id), 'neutral-studio']
const fashionSceneIds: readonly string[] = [...fashionStyles.map((s) => s.id), 'reference']

/** The description stored for an offline image, e.g. `offline-studio:v1:product:model:wood`. */
export function formatOfflineNote(note: OfflineNote): string {
  return `${prefix}:${note.subject}:${note.separation}:${note.scene}`
}

/** The note inside a stored description, or null for any other text (fal's, or older results). */
export function parseOfflineNote(description: string | null | undefined): OfflineNote | null {
  if (!description?.startsWith(`${prefix}:`)) return null
  const [subject, separation, scene, ...rest] = description.slice(prefix.length + 1).split(':')
  if (rest.length > 0 || !separation || !scene || !separations.includes(separation)) return null
  const how = separation as OfflineSeparation
  if (subject === 'product' && productSceneIds.includes(scene)) {
    return { subject, separation: how, scene: scene as ProductSceneId | 'neutral-studio' }
  }
  if (subject === 'garment' && fashionSceneIds.includes(scene)) {
    return { subject, separation: how, scene: scene as FashionStyleId | 'reference' }
  }
  return null
}
