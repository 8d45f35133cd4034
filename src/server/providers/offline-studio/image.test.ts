import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { parseOfflineNote } from '#shared/offline-note.ts'
import { type AspectRatio, imageSize, productScenes } from '#shared/scenes.ts'
import { compositePhoto } from '#tests/support/segmentation-eval.ts'
import {
  busyPhoto,
  garmentPhoto,
  productPhoto,
  redSquarePhoto,
  subjectlessPhoto,
  thinProductPhoto,
} from '#tests/support/test-photos.ts'
import { type ImageEditRequest, ProviderError } from '../types.ts'
import { renderFashionBackdrop } from './fashion-backdrops.ts'
import { type EditTools, editProductImage } from './image-edit.ts'
import { createOfflineStudio } from './index.ts'
import {
  boundsWhere,
  colourDistance,
  decodePixels,
  doneResult,
  meanColour,
  type Pixels,
  testContext,
} from './measure.ts'
import { viewOf } from './perspective.ts'
import { resultSizes } from './result-size.ts'
import { loadPhoto, type Subject, type SubjectDraft, separateSubject } from './separate.ts'

const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: '/usr/bin/ffmpeg' })
const ratios: AspectRatio[] = ['1:1', '9:16']

function request(image: Buffer, prompt: string, aspectRatio: AspectRatio = '1:1'): ImageEditRequest {
  return { tool: 'product', image: { bytes: image, mime: 'image/jpeg' }, prompt, aspectRatio }
}

async function edit(input: ImageEditRequest) {
  return doneResult(await studio.startImageEdit(input, testContext()))
}

const isRed = (r: number, g: number, b: number) => r > 150 && g < 90 && b < 90

async function failureOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise
    return null
  } catch (error) {
    if (error instanceof ProviderError) return error.failure
    throw error
  }
}

describe('offline studio: product images', () => {
  let product: Buffer
  let redSquare: Buffer
  beforeAll(async () => {
    product = await productPhoto({ width: 700, height: 700 })
    redSquare = await redSquarePhoto()
  })

  it.each(ratios)('makes a %s JPEG at exactly the output size, metadata stripped', async (ratio) => {
    const result = await edit(request(product, 'marble', ratio))
    const meta = await sharp(result.image.bytes).metadata()
    expect(result.image.mime).toBe('image/jpeg')
    expect(meta.format).toBe('jpeg')
    expect({ width: meta.width, height: meta.height }).toEqual(imageSize[ratio])
    expect(meta.exif).toBeUndefined()
    expect(meta.icc).toBeUndefined()
  })

  it('says plainly that the offline studio made it, how, and which scene', async () => {
    const result = await edit(request(product, 'ahşap masa'))
    expect(parseOfflineNote(result.description)).toMatchObject({
      subject: 'product',
      separation: 'backdrop',
      scene: 'wood',
      // A bottle standing on its flat base: the scene is seen from the front.
      view: 'front',
    })
    expect(result.promptUsed).toBe('ahşap masa')
    const fallback = await edit(request(product, ''))
    expect(fallback.promptUsed).toBe('white studio background')
    expect(parseOfflineNote(fallback.description)?.scene).toBe('white-studio')
  })

  it('separates the product: a red square on light grey ends up on the black scene with no grey around it', async () => {
    const result = await edit(request(redSquare, 'black minimal backdrop'))
    const image = await decodePixels(result.image.bytes)
    const { width, height } = image
    // The frame's edges are the dark scene.
    for (const strip of [
      meanColour(image, 0, 0, width, 20),
      meanColour(image, 0, 0, 20, height),
      meanColour(image, width - 20, 0, 20, height),
    ]) {
      expect(Math.max(...strip)).toBeLessThan(45)
    }
    const red = boundsWhere(image, isRed)
    expect(red).not.toBeNull()
    if (!red) return
    // Large, centred, and red in its middle.
    expect(red.width).toBeGreaterThan(width * 0.4)
    expect(Math.abs(red.left + red.width / 2 - width / 2)).toBeLessThan(8)
    const centre = meanColour(image, red.left + red.width / 2 - 20, red.top + red.height / 2 - 20, 40, 40)
    expect(isRed(centre[0] as number, centre[1] as number, centre[2] as number)).toBe(true)
    // Just outside the square, left and above, the light-grey backdrop is gone.
    const left = meanColour(image, red.left - 24, red.top + red.height / 2 - 20, 12, 40)
    const above = meanColour(image, red.left + red.width / 2 - 20, red.top - 24, 40, 12)
    expect(Math.max(...left)).toBeLessThan(90)
    expect(Math.max(...above)).toBeLessThan(90)
  })

  it('gives every scene a visibly different background', async () => {
    const scenes = [...productScenes.map((scene) => scene.prompt), 'something unrecognisable']
    const signatures: { prompt: string; signature: number[] }[] = []
    for (const prompt of scenes) {
      const image = await decodePixels((await edit(request(product, prompt))).image.bytes)
      signatures.push({ prompt, signature: backgroundSignature(image) })
    }
    for (let i = 0; i < signatures.length; i++) {
      for (let j = i + 1; j < signatures.length; j++) {
        const a = signatures[i] as (typeof signatures)[number]
        const b = signatures[j] as (typeof signatures)[number]
        expect(colourDistance(a.signature, b.signature), `${a.prompt} vs ${b.prompt}`).toBeGreaterThan(10)
      }
    }
  })

  it('is deterministic: the same input gives identical bytes, even from a fresh studio', async () => {
    const first = await edit(request(product, 'velvet'))
    const second = await edit(request(product, 'velvet'))
    const fresh = doneResult(
      await createOfflineStudio({
        segmenter: sharedSegmenter(),
        ffmpegPath: 'ffmpeg',
        backdropCacheSize: 0,
      }).startImageEdit(request(product, 'velvet'), testContext()),
    )
    expect(second.image.bytes.equals(first.image.bytes)).toBe(true)
    expect(fresh.image.bytes.equals(first.image.bytes)).toBe(true)
  })

  it('applies the EXIF orientation of the upload', async () => {
    // A wide red bar stored sideways: orientation 6 means "rotate 90° clockwise to display",
    // so the product the seller saw is a tall bar.
    const stored = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#d6d6d4' } })
      .composite([
        {
          input: await sharp({ create: { width: 500, height: 120, channels: 3, background: '#d01c1c' } })
            .png()
            .toBuffer(),
          left: 150,
          top: 140,
        },
      ])
      .jpeg({ quality: 92 })
      .withMetadata({ orientation: 6 })
      .toBuffer()
    expect((await sharp(stored).metadata()).orientation).toBe(6)
    const result = await edit(request(stored, 'black'))
    const meta = await sharp(result.image.bytes).metadata()
    expect(meta.orientation).toBeUndefined()
    const red = boundsWhere(await decodePixels(result.image.bytes), isRed)
    expect(red).not.toBeNull()
    if (!red) return
    expect(red.height).toBeGreaterThan(red.width * 3)
  })

  it('keeps the whole photo as a rounded card when neither the backdrop nor the model finds a product', async () => {
    const result = await edit(request(await subjectlessPhoto(), 'concrete wall', '9:16'))
    expect(parseOfflineNote(result.description)?.separation).toBe('card')
    const meta = await sharp(result.image.bytes).metadata()
    // The 900 px photo, drawn about 720 px wide at the standard size, has the pixels for 2048.
    expect({ width: meta.width, height: meta.height }).toEqual(resultSizes('9:16').at(-1))
    // The photo's own stripes are in the middle; the corners are the concrete wall.
    const image = await decodePixels(result.image.bytes)
    const corner = meanColour(image, 0, 0, 40, 40)
    expect(Math.max(...corner) - Math.min(...corner)).toBeLessThan(20)
  })

  it('uses the transparency of a cut-out PNG', async () => {
    const png = await sharp({
      create: { width: 600, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><circle cx="300" cy="300" r="180" fill="#1e50d2"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer()
    const result = doneResult(
      await studio.startImageEdit(
        { tool: 'product', image: { bytes: png, mime: 'image/png' }, prompt: 'siyah', aspectRatio: '1:1' },
        testContext(),
      ),
    )
    expect(parseOfflineNote(result.description)?.separation).toBe('backdrop')
    const image = await decodePixels(result.image.bytes)
    const blue = boundsWhere(image, (r, _g, b) => b > 150 && r < 80)
    expect(blue).not.toBeNull()
    if (!blue) return
    expect(Math.abs(blue.width - blue.height)).toBeLessThan(6)
    expect(Math.max(...meanColour(image, 0, 0, image.width, 20))).toBeLessThan(45)
  })

  it('handles unusual uploads: 16-bit, greyscale, CMYK, tiny', async () => {
    const drawing = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#ddd"/><circle cx="200" cy="150" r="80" fill="#a33"/></svg>',
    )
    const uploads = [
      await sharp(drawing).toColourspace('rgb16').png().toBuffer(),
      await sharp(drawing).greyscale().png().toBuffer(),
      await sharp(drawing).toColourspace('cmyk').jpeg().toBuffer(),
      await sharp(drawing).resize(12, 9).png().toBuffer(),
    ]
    for (const upload of uploads) {
      const result = await edit(request(upload, 'beton', '1:1'))
      const meta = await sharp(result.image.bytes).metadata()
      expect({ width: meta.width, height: meta.height, space: meta.space }).toEqual({
        ...imageSize['1:1'],
        space: 'srgb',
      })
    }
  })

  it('refuses an unreadable image and stops when canceled', async () => {
    expect(await failureOf(edit(request(Buffer.from('not an image at all'), 'marble')))).toBe('rejected')
    const controller = new AbortController()
    controller.abort()
    expect(
      await failureOf(studio.startImageEdit(request(product, 'marble'), testContext(controller.signal))),
    ).toBe('canceled')
  })

  it('never queues: resume fails and cancel does nothing', async () => {
    expect(await failureOf(studio.resumeImageEdit('anything', testContext()))).toBe('unavailable')
    await expect(studio.cancel('anything', testContext())).resolves.toBeUndefined()
  })
})

describe('offline studio: fashion images', () => {
  let garment: Buffer
  beforeAll(async () => {
    garment = await garmentPhoto({ width: 600, height: 720 })
  })

  function fashion(prompt: string, aspectRatio: AspectRatio, reference?: Buffer): ImageEditRequest {
    return {
      tool: 'fashion',
      image: { bytes: garment, mime: 'image/jpeg' },
      reference: reference ? { bytes: reference, mime: 'image/jpeg' } : undefined,
      prompt,
      aspectRatio,
    }
  }

  it.each(ratios)('makes a %s image at exactly the output size', async (ratio) => {
    const result = await edit(fashion('street style photography', ratio))
    const meta = await sharp(result.image.bytes).metadata()
    expect({ width: meta.width, height: meta.height }).toEqual(imageSize[ratio])
    expect(parseOfflineNote(result.description)).toMatchObject({
      subject: 'garment',
      separation: 'backdrop',
      scene: 'street',
    })
  })

  it('puts the separated garment on a backdrop that follows the style words', async () => {
    const runway = await decodePixels((await edit(fashion('podyum defile', '1:1'))).image.bytes)
    const vintage = await decodePixels((await edit(fashion('vintage', '1:1'))).image.bytes)
    expect(
      colourDistance(meanColour(runway, 0, 0, 80, 80), meanColour(vintage, 0, 0, 80, 80)),
    ).toBeGreaterThan(40)
    // The navy garment sits in the middle of both.
    for (const image of [runway, vintage]) {
      const centre = meanColour(image, image.width / 2 - 20, image.height / 2 - 20, 40, 40)
      expect(centre[2]).toBeGreaterThan(centre[0] as number)
      expect(Math.max(...centre)).toBeLessThan(110)
    }
  })

  it("leaves the photo's cast shadow behind: no grey halo around the garment on the brick wall", async () => {
    const shadowed = await garmentPhoto({ width: 600, height: 720, castShadow: true })
    const result = doneResult(
      await studio.startImageEdit(
        { ...fashion('street style photography', '1:1'), image: { bytes: shadowed, mime: 'image/jpeg' } },
        testContext(),
      ),
    )
    const image = await decodePixels(result.image.bytes)
    const backdrop = await renderFashionBackdrop('street', '1:1')
    const isGarment = (r: number, _g: number, b: number) => b > r + 25 && r < 90
    const ring = ringOutside(image, isGarment, 4, 10)
    expect(ring.length).toBeGreaterThan(2000)
    // Each ring pixel against the bare wall at the same spot: a shadow only darkens the brick
    // (a multiple of its colour); a halo of the photo's grey backdrop is another colour.
    const foreign = ring.filter((i) => {
      const pixel = [0, 1, 2].map((c) => image.data[i * 3 + c] as number)
      const wall = [0, 1, 2].map((c) => backdrop.raw[i * 3 + c] as number)
      const dot = pixel.reduce((sum, v, c) => sum + v * (wall[c] as number), 0)
      const k = Math.min(1.1, dot / wall.reduce((sum, v) => sum + v * v, 0))
      return (
        colourDistance(
          pixel,
          wall.map((v) => v * k),
        ) > 28
      )
    })
    expect(foreign.length / ring.length).toBeLessThan(0.02)
  })

  it('uses the reference photo, softened, as the backdrop when one is given', async () => {
    const reference = await sharp({
      create: { width: 900, height: 1200, channels: 3, background: '#2f9a4f' },
    })
      .jpeg()
      .toBuffer()
    const result = await edit(fashion('', '9:16', reference))
    expect(parseOfflineNote(result.description)?.scene).toBe('reference')
    expect(result.promptUsed).toBe('garment in front of the reference photo')
    const image = await decodePixels(result.image.bytes)
    expect({ width: image.width, height: image.height }).toEqual(imageSize['9:16'])
    const corner = meanColour(image, 0, 0, 60, 60)
    // Green like the reference, and dimmed.
    expect(corner[1]).toBeGreaterThan((corner[0] as number) + 40)
    expect(corner[1]).toBeLessThan(154)
  })
})

/**
 * Pixel indices between `inner` and `outer` pixels (chessboard distance) outside the region
 * `matches` accepts: the ring just outside a subject, where a halo would show.
 */
function ringOutside(
  image: Pixels,
  matches: (r: number, g: number, b: number) => boolean,
  inner: number,
  outer: number,
): number[] {
  const { width, height, data } = image
  const distance = new Int32Array(width * height).fill(outer + 1)
  for (let i = 0; i < width * height; i++) {
    if (!matches(data[i * 3] as number, data[i * 3 + 1] as number, data[i * 3 + 2] as number)) continue
    const x = i % width
    const y = (i - x) / width
    for (let dy = -outer; dy <= outer; dy++) {
      for (let dx = -outer; dx <= outer; dx++) {
        const xx = x + dx
        const yy = y + dy
        if (xx < 0 || yy < 0 || xx >= width || yy >= height) continue
        const j = yy * width + xx
        const d = Math.max(Math.abs(dx), Math.abs(dy))
        if (d < (distance[j] as number)) distance[j] = d
      }
    }
  }
  const ring: number[] = []
  for (let i = 0; i < width * height; i++) {
    const d = distance[i] as number
    if (d >= inner && d <= outer) ring.push(i)
  }
  return ring
}

/** Mean colours of the top and bottom of the frame and the bottom's texture strength. */
function backgroundSignature(image: Pixels): number[] {
  const { width, height } = image
  const top = meanColour(image, 0, 0, width, Math.round(height * 0.15))
  const bottomTop = Math.round(height * 0.9)
  const bottom = meanColour(image, 0, bottomTop, width, height - bottomTop)
  let variance = 0
  for (let y = bottomTop; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      variance += ((image.data[i + 1] as number) - (bottom[1] as number)) ** 2
    }
  }
  const texture = Math.sqrt(variance / (width * (height - bottomTop)))
  return [...top, ...bottom, texture * 2]
}

describe('offline studio: products on busy backgrounds, cut out by the segmentation model', () => {
  const photo = (name: string) =>
    readFile(new URL(`../../../../tests/fixtures/photos/${name}`, import.meta.url))

  it('cuts the cup, saucer and spoon out of the wooden table, with no rim of the table left', async () => {
    const subject = await separateSubject(await loadPhoto(await photo('coffee.png')), sharedSegmenter())
    expect(subject.separatedBy).toBe('model')
    const at = (x: number, y: number) => subject.data[(y * subject.width + x) * 4 + 3]
    // The saucer is round: the corners of its box are table, and cut away (a card is opaque there).
    expect([at(20, 20), at(20, subject.height - 21), at(subject.width - 21, subject.height - 21)]).toEqual([
      0, 0, 0,
    ])
    // The soft edge carries the product's colours, not the table's.
    const edge = [0, 0, 0]
    const solid = [0, 0, 0]
    let edges = 0
    let solids = 0
    for (let i = 0; i < subject.width * subject.height; i++) {
      const alpha = subject.data[i * 4 + 3] as number
      const into = alpha === 255 ? solid : alpha >= 16 && alpha <= 240 ? edge : null
      if (!into) continue
      for (let c = 0; c < 3; c++) into[c] = (into[c] as number) + (subject.data[i * 4 + c] as number)
      if (alpha === 255) solids++
      else edges++
    }
    const edgeMean = edge.map((v) => v / edges)
    const solidMean = solid.map((v) => v / solids)
    const wood = meanColour(await decodePixels(await photo('coffee.png')), 0, 330, 60, 60)
    expect(edges).toBeGreaterThan(500)
    expect(colourDistance(edgeMean, solidMean)).toBeLessThan(colourDistance(edgeMean, wood))
  })

  it('places the cut-out cup on the chosen scene, and says the model cut it out', async () => {
    const result = await edit(request(await photo('coffee.png'), 'mermer tezgah'))
    expect(parseOfflineNote(result.description)).toMatchObject({
      subject: 'product',
      separation: 'model',
      scene: 'marble',
      // Shot from above: the marble is the whole frame, no wall behind the cup.
      view: 'top',
    })
    // The 600×400 photo's cup is enlarged to fill the frame: the note says so (decision 43).
    expect(parseOfflineNote(result.description)?.smallPhoto?.enlargement).toBeGreaterThan(1.25)
    const image = await decodePixels(result.image.bytes)
    // The red saucer, large and in the middle of the frame (a card is smaller: 86 %).
    const red = boundsWhere(image, (r, g, b) => r > 110 && g < 60 && b < 50)
    expect(red).not.toBeNull()
    if (!red) return
    expect(red.width).toBeGreaterThan(image.width * 0.58)
    expect(Math.abs(red.left + red.width / 2 - image.width / 2)).toBeLessThan(image.width * 0.08)
  })

  it('keeps the launch towers and lamps out when the flood fill mistakes the night sky for a backdrop', async () => {
    const result = await edit(request(await photo('rocket.jpg'), 'white studio background'))
    expect(parseOfflineNote(result.description)?.separation).toBe('model')
    const image = await decodePixels(result.image.bytes)
    // On the white studio anything colourful is the rocket or what came with it: only the middle.
    const colourful = boundsWhere(image, (r, g, b) => Math.max(r, g, b) - Math.min(r, g, b) > 40)
    expect(colourful).not.toBeNull()
    if (!colourful) return
    expect(colourful.left).toBeGreaterThan(image.width * 0.38)
    expect(colourful.left + colourful.width).toBeLessThan(image.width * 0.62)
    expect(colourful.height).toBeGreaterThan(image.height * 0.4)
  })

  /** A studio of its own whose segmenter counts the photos it is given. */
  function countingStudio() {
    const shared = sharedSegmenter()
    const counted = { calls: 0 }
    const segmenter = {
      ...shared,
      segment: (image: Parameters<typeof shared.segment>[0]) => {
        counted.calls++
        return shared.segment(image)
      },
    }
    return { studio: createOfflineStudio({ ffmpegPath: '/usr/bin/ffmpeg', segmenter }), counted }
  }

  it('separates a photo once for scene after scene, and again for another photo', async () => {
    const { studio: own, counted } = countingStudio()
    const coffee = await photo('coffee.png')
    const onScene = async (bytes: Buffer, prompt: string) =>
      parseOfflineNote(
        doneResult(
          await own.startImageEdit(
            { tool: 'product', image: { bytes, mime: 'image/png' }, prompt, aspectRatio: '1:1' },
            testContext(),
          ),
        ).description,
      )
    expect(await onScene(coffee, 'marble')).toMatchObject({ separation: 'model', scene: 'marble' })
    expect(await onScene(coffee, 'velvet')).toMatchObject({ separation: 'model', scene: 'velvet' })
    expect(counted.calls).toBe(1)
    await onScene(await busyPhoto(), 'velvet')
    expect(counted.calls).toBe(2)
  })

  it('uses the cut `prepare` made of a photo that has just arrived, and makes the same image', async () => {
    const { studio: own, counted } = countingStudio()
    const coffee = {
      bytes: await photo('coffee.png'),
      mime: 'image/png' as const,
      sha256: 'stored-asset-checksum',
    }
    await own.prepare(coffee)
    expect(counted.calls).toBe(1)
    const onMarble = {
      tool: 'product' as const,
      image: coffee,
      prompt: 'marble',
      aspectRatio: '1:1' as const,
    }
    const result = doneResult(await own.startImageEdit(onMarble, testContext()))
    expect(parseOfflineNote(result.description)).toMatchObject({ separation: 'model', scene: 'marble' })
    expect(counted.calls).toBe(1)
    // The same photo in a studio that never prepared it: the same pixels.
    const fresh = doneResult(await countingStudio().studio.startImageEdit(onMarble, testContext()))
    expect(result.image.bytes.equals(fresh.image.bytes)).toBe(true)
  })

  it('cuts a white disc out of busy stripes', async () => {
    const result = await edit(request(await busyPhoto(), 'concrete wall'))
    expect(parseOfflineNote(result.description)?.separation).toBe('model')
  })

  it('separates a garment the same way for the fashion backdrops: a T-shirt on a cluttered desk', async () => {
    const shirt = await compositePhoto('t-shirt', 'clutter')
    const result = doneResult(
      await studio.startImageEdit(
        {
          tool: 'fashion',
          image: { bytes: shirt.jpeg, mime: 'image/jpeg' },
          prompt: 'vintage',
          aspectRatio: '1:1',
        },
        testContext(),
      ),
    )
    expect(parseOfflineNote(result.description)).toMatchObject({
      subject: 'garment',
      separation: 'model',
      scene: 'vintage',
    })
    const image = await decodePixels(result.image.bytes)
    // The navy shirt fills the middle; none of the desk's papers and pens came with it.
    const navy = boundsWhere(image, (r, _g, b) => b > r + 25 && b < 140 && r < 70)
    expect(navy).not.toBeNull()
    if (!navy) return
    expect(navy.width).toBeGreaterThan(image.width * 0.6)
    const centre = meanColour(image, image.width / 2 - 20, image.height / 2 - 20, 40, 40)
    expect(centre[2]).toBeGreaterThan((centre[0] as number) + 30)
    const corner = meanColour(image, 0, 0, 80, 80)
    const plain = await decodePixels(
      doneResult(
        await studio.startImageEdit(
          {
            tool: 'fashion',
            image: { bytes: await garmentPhoto({ width: 600, height: 720 }), mime: 'image/jpeg' },
            prompt: 'vintage',
            aspectRatio: '1:1',
          },
          testContext(),
        ),
      ).image.bytes,
    )
    expect(colourDistance(corner, meanColour(plain, 0, 0, 80, 80))).toBeLessThan(6)
  })
})

describe('offline studio: the scene is painted while the model still runs', () => {
  it("drafts the cut from the flood fill: the draft's size and view are the cut's", async () => {
    const segmenter = sharedSegmenter()
    for (const bytes of [await productPhoto({ width: 1400, height: 1000 }), await thinProductPhoto()]) {
      const drafts: SubjectDraft[] = []
      const subject = await separateSubject(await loadPhoto(bytes), segmenter, (draft) => drafts.push(draft))
      expect(drafts).toHaveLength(1)
      const [draft] = drafts as [SubjectDraft]
      // To a pixel or two: the model may yet take a shadow's last row off the flood fill's cut.
      expect(Math.abs(draft.cutWidth - subject.width)).toBeLessThanOrEqual(2)
      expect(Math.abs(draft.cutHeight - subject.height)).toBeLessThanOrEqual(2)
      expect(viewOf(draft.outline)).toBe(viewOf(subject))
    }
    // Without the flood fill's cut (a busy backdrop, the model's cut) there is no draft.
    const drafts: SubjectDraft[] = []
    await separateSubject(await loadPhoto(await busyPhoto()), segmenter, (draft) => drafts.push(draft))
    expect(drafts).toHaveLength(0)
  }, 60_000)

  it('paints the one scene from the draft, and the result is the one the finished cut makes', async () => {
    const photo = await productPhoto({ width: 1400, height: 1000 })
    const painted: string[] = []
    const cuts = new Map<string, Promise<Subject>>()
    const tools: EditTools = {
      segmenter: sharedSegmenter(),
      backdrops: (key, render) => {
        painted.push(key)
        return render()
      },
      // Kept between the two edits below, as the studio's cache keeps them.
      subjects: (key, cut) => {
        const made =
          cuts.get(key) ??
          cut().then((subject) => {
            painted.push('cut made')
            return subject
          })
        cuts.set(key, made)
        return made
      },
    }
    const drafted = await editProductImage(
      request(photo, 'marble', '9:16'),
      new AbortController().signal,
      tools,
    )
    // The scene was started before the cut was made, and not painted again after it.
    expect(painted).toHaveLength(2)
    expect(painted[1]).toBe('cut made')
    // The same photo again: its cut is taken from before, so no draft, and the scene is painted
    // after the cut. The same pixels either way.
    const afterwards = await editProductImage(
      request(photo, 'marble', '9:16'),
      new AbortController().signal,
      tools,
    )
    expect(painted).toHaveLength(3)
    expect(painted[2]).toBe(painted[0])
    expect(afterwards.image.bytes.equals(drafted.image.bytes)).toBe(true)
  }, 60_000)
})
