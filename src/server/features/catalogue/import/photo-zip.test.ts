import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import iconv from 'iconv-lite'
import { afterAll, describe, expect, it } from 'vitest'
import { catalogueLimits } from '#shared/catalogue/limits.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'
import { cp857PhotoName, photoBytes, photosZip, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { createListReader } from './list-reader.ts'
import { indexPhotoZip, openPhotoZip, type PhotoZip, photoZipFromIndex } from './photo-zip.ts'

async function refusal(promise: Promise<unknown>): Promise<ErrorCode> {
  try {
    await promise
  } catch (error) {
    if (error instanceof AppError) return error.code
    throw error
  }
  throw new Error('expected a refusal')
}

const opened: PhotoZip[] = []
async function open(...args: Parameters<typeof openPhotoZip>): Promise<PhotoZip> {
  const zip = await openPhotoZip(...args)
  opened.push(zip)
  return zip
}

const dir = mkdtempSync(join(tmpdir(), 'vitrin-photo-zip-'))
afterAll(() => {
  for (const zip of opened) zip.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('openPhotoZip', () => {
  it('indexes names (UTF-8 flag, CP857 without it), skips macOS extras, reports ../', async () => {
    const zip = await open(await photosZip())
    expect(zip.entries.map((entry) => entry.path)).toEqual([
      'KRM-001_1.jpg',
      'fotoğraflar/KRM-001_2.jpg',
      'fotoğraflar/KRM-002_1.JPG',
      cp857PhotoName,
    ])
    expect(zip.ignoredCount).toBe(2)
    expect(zip.problems).toEqual([{ path: '../evil.jpg', code: 'unsafePath' }])
    expect(zip.find('../evil.jpg')).toEqual({ status: 'missing' })
    expect(zip.find('evil.jpg')).toEqual({ status: 'missing' })
  })

  it('finds photos without case (Turkish I/İ/ı too), with or without folders, with \\ or /', async () => {
    const zip = await open(await photosZip())
    const path = (reference: string) => {
      const found = zip.find(reference)
      return found.status === 'found' ? found.entry.path : found.status
    }
    expect(path('KRM-001_1.jpg')).toBe('KRM-001_1.jpg')
    expect(path('krm-001_1.JPG')).toBe('KRM-001_1.jpg')
    expect(path('KRM-001_2.jpg')).toBe('fotoğraflar/KRM-001_2.jpg')
    expect(path('FOTOĞRAFLAR\\krm-002_1.jpg')).toBe('fotoğraflar/KRM-002_1.JPG')
    expect(path('./fotoğraflar/KRM-002_1.jpg')).toBe('fotoğraflar/KRM-002_1.JPG')
    expect(path('baska-klasor/KRM-001_1.jpg')).toBe('KRM-001_1.jpg')
    expect(path('Işık Şal.jpg')).toBe(cp857PhotoName)
    expect(path('IŞIK ŞAL.JPG')).toBe(cp857PhotoName)
    expect(path('ışık şal.jpg')).toBe(cp857PhotoName)
    expect(path('Işık Şal.jpg'.normalize('NFD'))).toBe(cp857PhotoName)
    expect(path('yok.jpg')).toBe('missing')
    expect(path('')).toBe('missing')
  })

  it('reads UTF-8 names that lack the flag, and matches CP437 readings too', async () => {
    const zip = await open(
      await zipOf([
        { name: 'utf8-no-flag', rawName: Buffer.from('çiçek.jpg', 'utf8'), data: photoBytes(10) },
        { name: 'cp437', rawName: iconv.encode('Mädchen.jpg', 'cp437'), data: photoBytes(10) },
      ]),
    )
    expect(zip.entries.map((entry) => entry.path)).toEqual(['çiçek.jpg', 'Mädchen.jpg'])
    expect(zip.find('ÇİÇEK.jpg')).toMatchObject({ status: 'found' })
    expect(zip.find('Mädchen.jpg')).toMatchObject({ status: 'found' })
  })

  it('calls a name that fits files in two folders ambiguous unless the folder is given', async () => {
    const zip = await open(
      await zipOf([
        { name: 'yaz/a.jpg', data: photoBytes(10, 1) },
        { name: 'kis/a.jpg', data: photoBytes(10, 2) },
      ]),
    )
    expect(zip.find('a.jpg')).toMatchObject({ status: 'ambiguous' })
    expect(zip.find('KIS/A.JPG')).toMatchObject({ status: 'found', entry: { path: 'kis/a.jpg' } })
    expect(zip.find('arsiv/kis/a.jpg')).toMatchObject({ status: 'found', entry: { path: 'kis/a.jpg' } })
  })

  it('marks a photo over the size limit and one packed like a bomb, and never inflates them', async () => {
    const limits = {
      ...catalogueLimits,
      photoZip: { ...catalogueLimits.photoZip, maxPhotoBytes: 2 * 1024 * 1024 },
    }
    const zip = await open(
      await zipOf([
        { name: 'ok.jpg', data: photoBytes(5000) },
        { name: 'big.jpg', data: photoBytes(3 * 1024 * 1024) },
        { name: 'zeros.jpg', data: Buffer.alloc(1024 * 1024 + 1) },
      ]),
      { limits },
    )
    expect(zip.problems).toEqual([
      { path: 'big.jpg', code: 'tooLarge' },
      { path: 'zeros.jpg', code: 'suspiciousCompression' },
    ])
    const [ok, big, zeros] = zip.entries
    if (!ok || !big || !zeros) throw new Error('entries missing')
    expect((await zip.readPhoto(ok)).equals(photoBytes(5000))).toBe(true)
    expect(await refusal(zip.readPhoto(big))).toBe('FILE_TOO_LARGE')
    expect(await refusal(zip.readPhoto(zeros))).toBe('IMAGE_UNREADABLE')
  })

  it('stops reading a photo whose header understates its size', async () => {
    const zip = await open(
      await zipOf([{ name: 'liar.jpg', data: Buffer.alloc(200_000, 7), declaredSize: 1000 }]),
    )
    const [liar] = zip.entries
    if (!liar) throw new Error('entry missing')
    expect(await refusal(zip.readPhoto(liar))).toBe('IMAGE_UNREADABLE')
  })

  it('refuses more than 10,000 entries before reading them', async () => {
    const entries = Array.from({ length: catalogueLimits.photoZip.maxEntries + 1 }, (_, index) => ({
      name: `p${index}.jpg`,
      store: true,
    }))
    expect(await refusal(openPhotoZip(await zipOf(entries)))).toBe('CATALOGUE_ZIP_TOO_MANY_ENTRIES')
  })

  it('refuses what is not a ZIP, and a ZIP unpacking past the total limit', async () => {
    expect(await refusal(openPhotoZip(Buffer.from('not a zip at all')))).toBe('CATALOGUE_ZIP_INVALID')
    expect(await refusal(openPhotoZip(Buffer.alloc(0)))).toBe('CATALOGUE_ZIP_INVALID')
    const limits = {
      ...catalogueLimits,
      photoZip: { ...catalogueLimits.photoZip, maxUncompressedBytes: 10_000 },
    }
    const zip = await zipOf([
      { name: 'a.jpg', data: photoBytes(6000, 1) },
      { name: 'b.jpg', data: photoBytes(6000, 2) },
    ])
    expect(await refusal(openPhotoZip(zip, { limits }))).toBe('CATALOGUE_ZIP_TOO_LARGE')
    const declaredHuge = await zipOf([{ name: 'a.jpg', data: photoBytes(100), declaredSize: 0xffff_fff0 }])
    expect(await refusal(openPhotoZip(declaredHuge))).toBe('CATALOGUE_ZIP_TOO_LARGE')
  })

  it('opens a ZIP from a path and reads photos from it on demand', async () => {
    const path = join(dir, 'photos.zip')
    writeFileSync(path, await photosZip())
    const zip = await open(path)
    const found = zip.find('KRM-001_2.jpg')
    if (found.status !== 'found') throw new Error('photo missing')
    expect((await zip.readPhoto(found.entry)).equals(photoBytes(3000, 2))).toBe(true)
    const stream = await zip.openPhotoStream(found.entry)
    let length = 0
    for await (const chunk of stream) length += (chunk as Buffer).length
    expect(length).toBe(3000)
  })

  it("indexes an uploaded ZIP on the list reader's thread, and reads its photos here", async () => {
    const path = join(dir, 'threaded.zip')
    writeFileSync(path, await photosZip())
    const notZip = join(dir, 'not-a.zip')
    writeFileSync(notZip, 'not a zip at all')
    const reader = createListReader({ threads: 1 })
    try {
      const index = await reader.indexPhotoZip(path)
      expect(index).toEqual(await indexPhotoZip(path))
      const zip = photoZipFromIndex(path, index)
      const found = zip.find('KRM-001_2.jpg')
      if (found.status !== 'found') throw new Error('photo missing')
      expect((await zip.readPhoto(found.entry)).equals(photoBytes(3000, 2))).toBe(true)
      expect(await refusal(reader.indexPhotoZip(notZip))).toBe('CATALOGUE_ZIP_INVALID')
    } finally {
      await reader.close()
    }
  })
})
