import { describe, expect, it } from 'vitest'
import { formatOfflineNote, type OfflineNote, parseOfflineNote } from './offline-note.ts'

describe('the offline studio’s note', () => {
  it('reads back what was written', () => {
    const notes: OfflineNote[] = [
      { subject: 'product', separation: 'model', scene: 'wood' },
      { subject: 'product', separation: 'card', scene: 'neutral-studio' },
      { subject: 'garment', separation: 'backdrop', scene: 'reference' },
      { subject: 'garment', separation: 'model', scene: 'avant-garde' },
      {
        subject: 'product',
        separation: 'backdrop',
        scene: 'marble',
        smallPhoto: { productSide: 410, enlargement: 2.6, photoSide: 1700 },
      },
      { subject: 'product', separation: 'model', scene: 'marble', view: 'top' },
      { subject: 'product', separation: 'backdrop', scene: 'wood', view: 'front' },
    ]
    for (const note of notes) expect(parseOfflineNote(formatOfflineNote(note))).toEqual(note)
    expect(formatOfflineNote({ subject: 'product', separation: 'model', scene: 'wood' })).toBe(
      'offline-studio:v1:product:model:wood',
    )
    expect(
      formatOfflineNote({
        subject: 'product',
        separation: 'model',
        scene: 'wood',
        smallPhoto: { productSide: 410.4, enlargement: 2.63, photoSide: 1702 },
      }),
    ).toBe('offline-studio:v1:product:model:wood:small/410/2.6/1702')
    // With a view, the small-photo part comes after it.
    const both: OfflineNote = {
      subject: 'product',
      separation: 'model',
      scene: 'marble',
      view: 'top',
      smallPhoto: { productSide: 300, enlargement: 3.1, photoSide: 2000 },
    }
    expect(formatOfflineNote(both)).toBe('offline-studio:v1:product:model:marble:top:small/300/3.1/2000')
    expect(parseOfflineNote(formatOfflineNote(both))).toEqual(both)
    // The view the scene was drawn in goes last, after the scene.
    expect(formatOfflineNote({ subject: 'product', separation: 'model', scene: 'marble', view: 'top' })).toBe(
      'offline-studio:v1:product:model:marble:top',
    )
  })

  it('leaves anything else alone: fal’s words, older English notes, unknown scenes or kinds', () => {
    for (const text of [
      null,
      undefined,
      'A blue mug on a marble counter.',
      "Made by Vitrin's offline studio, not by AI: the product was cut out. (scene: wood)",
      'offline-studio:v1:product:model:runway',
      'offline-studio:v1:garment:model:wood',
      'offline-studio:v1:product:guess:wood',
      'offline-studio:v2:product:model:wood',
      'offline-studio:v1:product:model:wood:extra',
      'offline-studio:v1:product:model:wood:small/410/2.6',
      'offline-studio:v1:product:model:wood:small/410/2.6/1700:more',
      'offline-studio:v1:product:model:wood:top:extra',
      'offline-studio:v1:garment:model:editorial:top',
    ]) {
      expect(parseOfflineNote(text)).toBeNull()
    }
  })
})
