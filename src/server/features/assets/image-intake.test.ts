import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { AppError } from '#shared/errors.ts'
import { normalizeUploadedImage } from './image-intake.ts'
import { stripJpegMetadata } from './jpeg-segments.ts'

// The cleaning of uploads (and catalogue photos) without the app: a JPEG that needs no pixel work
// keeps its compressed pixels and loses its metadata; anything else is decoded and re-encoded;
// either way the same files are refused.

/** A camera-like photo: noise (so it is not trivially small), camera EXIF with GPS, XMP and a comment. */
async function cameraJpeg(
  options: { width?: number; height?: number; orientation?: number; progressive?: boolean } = {},
): Promise<Buffer> {
  const width = options.width ?? 320
  const height = options.height ?? 240
  // Grainy like a camera photo, but the same grain every run (sharp's own noise is random): where
  // a cut file's entropy-coded data happens to end decides whether the decoder notices the cut.
  const pixels = Buffer.alloc(width * height * 3)
  let seed = 0x9e3779b9
  for (let i = 0; i < pixels.length; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
    pixels[i] = 115 + (seed >>> 26)
  }
  let image = sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({
    quality: 88,
    progressive: options.progressive ?? false,
  })
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation })
  const jpeg = await image
    .withExif({
      IFD0: { Make: 'Canon', Model: 'secret-camera-model', Copyright: 'secret-owner' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '41/1 1/1 3/1', GPSMapDatum: 'secret-gps-datum' },
    })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><secret-xmp/></x:xmpmeta>')
    .toBuffer()
  // A COM segment right after SOI, as some editors write.
  const text = Buffer.from('secret-comment')
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, text.length + 2]), text])
  return Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)])
}

const secrets = [
  'secret-camera-model',
  'secret-owner',
  'secret-gps-datum',
  'secret-xmp',
  'secret-comment',
  'Exif',
]

function leaked(bytes: Buffer): string[] {
  return secrets.filter((secret) => bytes.includes(Buffer.from(secret)))
}

async function pixels(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).raw().toBuffer()
}

/** Whether the full decode the re-encoding path does (failOn: 'truncated') accepts the file. */
async function fullDecodeAccepts(bytes: Buffer): Promise<boolean> {
  return sharp(bytes, { failOn: 'truncated' })
    .raw()
    .toBuffer()
    .then(
      () => true,
      () => false,
    )
}

async function intakeAccepts(bytes: Buffer): Promise<boolean> {
  return normalizeUploadedImage(bytes).then(
    () => true,
    (error: unknown) => {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).code).toBe('IMAGE_UNREADABLE')
      return false
    },
  )
}

describe('normalizeUploadedImage', () => {
  it('strips EXIF with GPS, XMP and comments from an upright JPEG and keeps its pixels as they were', async () => {
    const photo = await cameraJpeg()
    expect(leaked(photo)).toEqual(secrets)
    const clean = await normalizeUploadedImage(photo)
    expect(clean).toMatchObject({ mime: 'image/jpeg', width: 320, height: 240 })
    expect(leaked(clean.bytes)).toEqual([])
    const meta = await sharp(clean.bytes).metadata()
    expect(meta.exif).toBeUndefined()
    expect(meta.xmp).toBeUndefined()
    expect(meta.comments ?? []).toEqual([])
    // Not re-encoded: the same decoded pixels, not ones a second lossy encode would give.
    expect((await pixels(clean.bytes)).equals(await pixels(photo))).toBe(true)
  })

  it('keeps the colour profile and drops what follows the image (a second picture, a hidden file)', async () => {
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#1d4ed8' } })
      .jpeg()
      .withIccProfile('p3')
      .toBuffer()
    const appended = Buffer.concat([photo, Buffer.from('PK\u0003\u0004secret-comment')])
    const clean = await normalizeUploadedImage(appended)
    expect((await sharp(clean.bytes).metadata()).icc).toBeDefined()
    expect(leaked(clean.bytes)).toEqual([])
    expect(clean.bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]))
  })

  it('turns a photo with an EXIF orientation upright and strips its metadata', async () => {
    // 320×240 stored sideways with "rotate 90°": upright it is 240×320.
    const photo = await cameraJpeg({ orientation: 6 })
    const clean = await normalizeUploadedImage(photo)
    expect(clean).toMatchObject({ width: 240, height: 320 })
    const meta = await sharp(clean.bytes).metadata()
    expect(meta.orientation ?? 1).toBe(1)
    expect(meta.exif).toBeUndefined()
    expect(leaked(clean.bytes)).toEqual([])
  })

  it('re-encodes a progressive JPEG and one above the stored size, metadata stripped', async () => {
    const progressive = await normalizeUploadedImage(await cameraJpeg({ progressive: true }))
    expect(leaked(progressive.bytes)).toEqual([])
    expect((await sharp(progressive.bytes).metadata()).isProgressive).toBe(false)
    const large = await normalizeUploadedImage(await cameraJpeg({ width: 4200, height: 100 }))
    expect(large).toMatchObject({ width: 4096 })
    expect(leaked(large.bytes)).toEqual([])
  })

  it('refuses a truncated JPEG, and accepts and refuses damaged files exactly as the full decode does', async () => {
    const photo = await cameraJpeg()
    const progressive = await cameraJpeg({ progressive: true })
    const eoi = Buffer.from([0xff, 0xd9])
    const half = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2))
    const withoutQuantTables = (() => {
      // DQT segments renamed to comments: the header reads, the decoder stops.
      const bytes = Buffer.from(photo)
      for (let at = bytes.indexOf(Buffer.from([0xff, 0xdb])); at >= 0; ) {
        bytes[at + 1] = 0xfe
        at = bytes.indexOf(Buffer.from([0xff, 0xdb]), at + 2)
      }
      return bytes
    })()
    const cases: Record<string, Buffer> = {
      truncated: half(photo),
      'without EOI': photo.subarray(0, photo.length - 2),
      'cut, then EOI': Buffer.concat([half(photo), eoi]),
      'progressive, truncated': half(progressive),
      'progressive, cut, then EOI': Buffer.concat([half(progressive), eoi]),
      'damaged scan data': (() => {
        const bytes = Buffer.from(photo)
        bytes.fill(0x55, bytes.length - 3000, bytes.length - 2900)
        return bytes
      })(),
      'no quantisation tables': withoutQuantTables,
    }
    const verdicts: Record<string, [boolean, boolean]> = {}
    for (const [name, bytes] of Object.entries(cases)) {
      verdicts[name] = [await intakeAccepts(bytes), await fullDecodeAccepts(bytes)]
    }
    for (const [name, [intake, decode]] of Object.entries(verdicts))
      expect([name, intake]).toEqual([name, decode])
    expect(verdicts.truncated).toEqual([false, false])
    expect(verdicts['without EOI']).toEqual([false, false])
    expect(verdicts['no quantisation tables']).toEqual([false, false])
  })
})

describe('stripJpegMetadata', () => {
  it('answers null for what it does not rewrite: no EOI, progressive, not a JPEG', async () => {
    const photo = await cameraJpeg()
    expect(stripJpegMetadata(photo)).not.toBeNull()
    expect(stripJpegMetadata(photo.subarray(0, photo.length - 2))).toBeNull()
    expect(stripJpegMetadata(await cameraJpeg({ progressive: true }))).toBeNull()
    expect(stripJpegMetadata(Buffer.from('not a jpeg'))).toBeNull()
  })
})
