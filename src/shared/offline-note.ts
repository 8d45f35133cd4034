import { type FashionStyleId, fashionStyles, type ProductSceneId, productScenes } from './scenes.ts'

// What the offline studio did to make an image, stored as the result's description in a
// language-neutral form, so the web app can say it in whichever language the user reads
// (locale keys studio.result.offlineNote.*). A job does not know its user's language, and the
// reader may switch languages later; fal's descriptions are the model's own words and stay text.

/** How the subject was separated: along a plain backdrop (or its own transparency), by the model, or not at all. */
export type OfflineSeparation = 'backdrop' | 'model' | 'card'

/**
 * The photo was too small for the result: its product, `productSide` px on its longer side, was
 * drawn `enlargement` times larger; a photo `photoSide` px on its longer side would need none.
 */
export type SmallPhoto = { productSide: number; enlargement: number; photoSide: number }

export type OfflineNote =
  | {
      subject: 'product'
      separation: OfflineSeparation
      scene: ProductSceneId | 'neutral-studio'
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

/**
 * The description stored for an offline image, e.g. `offline-studio:v1:product:model:wood`, or
 * with a too-small photo `offline-studio:v1:product:model:wood:small/410/2.6/1600`.
 */
export function formatOfflineNote(note: OfflineNote): string {
  const base = `${prefix}:${note.subject}:${note.separation}:${note.scene}`
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
  const [subject, separation, scene, extra, ...rest] = description.slice(prefix.length + 1).split(':')
  if (rest.length > 0 || !separation || !scene || !separations.includes(separation)) return null
  const smallPhoto = extra === undefined ? null : parseSmallPhoto(extra)
  if (extra !== undefined && !smallPhoto) return null
  const how = separation as OfflineSeparation
  const small = smallPhoto ? { smallPhoto } : {}
  if (subject === 'product' && productSceneIds.includes(scene)) {
    return { subject, separation: how, scene: scene as ProductSceneId | 'neutral-studio', ...small }
  }
  if (subject === 'garment' && fashionSceneIds.includes(scene)) {
    return { subject, separation: how, scene: scene as FashionStyleId | 'reference', ...small }
  }
  return null
}
