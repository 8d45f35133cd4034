import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { assets } from '#server/db/schema/index.ts'
import type { ImageFile } from '#server/providers/types.ts'
import { makeJpeg, makePng } from '#tests/support/fake-providers.ts'
import { signedInClient, upload } from '#tests/support/generation-client.ts'
import { resetDatabase, startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** A real, valid PNG of 20000×20000 one-bit pixels: ~50 KB on disk, 400 megapixels decoded. */
function decompressionBombPng(): Buffer {
  const side = 20000
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(side, 0)
  header.writeUInt32BE(side, 4)
  header.writeUInt8(1, 8) // bit depth
  header.writeUInt8(0, 9) // greyscale
  const raw = Buffer.alloc(side * (1 + side / 8)) // every row: filter byte 0, then zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function filesOnDisk(server: TestServer): string[] {
  const root = join(server.dataDir, 'files')
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
  } catch {
    return []
  }
}

describe('uploads', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  it('stores a photo, applies its EXIF orientation, strips metadata, and serves it to its owner only', async () => {
    const owner = await signedInClient(server)
    // 400×200 pixels stored sideways with "rotate 90°" in EXIF: upright it is 200×400.
    const sideways = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#16a34a' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret-metadata' } } })
      .toBuffer()
    const response = await upload(owner, sideways, 'Ürün Fotoğrafı.JPG')
    expect(response.status).toBe(201)
    const { asset } = await response.json()
    expect(asset).toMatchObject({
      width: 200,
      height: 400,
      mime: 'image/jpeg',
      fileName: 'Urun-Fotografi.jpg',
    })

    const file = await owner.request(`/api/assets/${asset.id}/file`)
    expect(file.status).toBe(200)
    const stored = Buffer.from(await file.arrayBuffer())
    const meta = await sharp(stored).metadata()
    expect(meta.orientation ?? 1).toBe(1)
    expect(meta.exif).toBeUndefined()
    expect(stored.includes(Buffer.from('secret-metadata'))).toBe(false)

    const download = await owner.request(`/api/assets/${asset.id}/file?download=1`)
    expect(download.headers.get('content-disposition')).toContain('attachment; filename="Urun-Fotografi.jpg"')

    const stranger = await signedInClient(server)
    expect((await stranger.request(`/api/assets/${asset.id}/file`)).status).toBe(404)
    expect((await stranger.request(`/api/assets/${asset.id}`)).status).toBe(404)
  })

  it('accepts PNG and WEBP by content', async () => {
    const client = await signedInClient(server)
    expect((await upload(client, await makePng(), 'a.png', 'image/png')).status).toBe(201)
    const webp = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#000' } })
      .webp()
      .toBuffer()
    // A misleading name and declared type do not matter: the bytes say WEBP.
    const response = await upload(client, webp, 'photo.jpg', 'image/jpeg')
    expect(response.status).toBe(201)
    expect((await response.json()).asset.mime).toBe('image/webp')
  })

  const badUploads: {
    name: string
    make: () => Promise<Buffer>
    fileName: string
    code: string
    status: number
  }[] = [
    {
      name: 'text with an image extension',
      make: async () => Buffer.from('this is not an image at all, just text pretending'),
      fileName: 'photo.png',
      code: 'FILE_TYPE_INVALID',
      status: 415,
    },
    {
      name: 'an SVG',
      make: async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      fileName: 'logo.svg',
      code: 'FILE_TYPE_INVALID',
      status: 415,
    },
    {
      name: 'an empty file',
      make: async () => Buffer.alloc(0),
      fileName: 'empty.jpg',
      code: 'FILE_TYPE_INVALID',
      status: 415,
    },
    {
      name: 'a truncated JPEG',
      make: async () => {
        const full = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#f00' } })
          .jpeg()
          .toBuffer()
        return full.subarray(0, Math.floor(full.length / 2))
      },
      fileName: 'cut.jpg',
      code: 'IMAGE_UNREADABLE',
      status: 400,
    },
    {
      name: 'a 20000×20000 PNG (decompression bomb)',
      make: async () => decompressionBombPng(),
      fileName: 'bomb.png',
      code: 'IMAGE_TOO_LARGE',
      status: 400,
    },
    {
      name: 'an 11 MB file',
      make: async () => Buffer.concat([await makeJpeg(), Buffer.alloc(11 * 1024 * 1024, 1)]),
      fileName: 'huge.jpg',
      code: 'FILE_TOO_LARGE',
      status: 413,
    },
  ]

  for (const bad of badUploads) {
    it(`refuses ${bad.name} with ${bad.code} and stores nothing`, async () => {
      const client = await signedInClient(server)
      const filesBefore = filesOnDisk(server)
      const response = await upload(client, await bad.make(), bad.fileName)
      expect(response.status).toBe(bad.status)
      expect((await response.json()).error.code).toBe(bad.code)
      expect(await server.database.db.select().from(assets)).toHaveLength(0)
      expect(filesOnDisk(server)).toEqual(filesBefore)
    })
  }

  it('refuses a body without a file, and anyone not signed in', async () => {
    const client = await signedInClient(server)
    const empty = await client.request('/api/assets', { method: 'POST', body: new FormData() })
    expect((await empty.json()).error.code).toBe('FILE_MISSING')
    const anonymous = await server.api('/api/assets', { method: 'POST', body: new FormData() })
    expect(anonymous.status).toBe(401)
  })
})

describe('a stored photo and the offline studio', () => {
  let server: TestServer
  const prepared: ImageFile[] = []
  beforeAll(async () => {
    server = await startTestServer(
      {},
      {
        warmUpStudio: async (photo) => {
          if (photo) prepared.push(photo)
        },
      },
    )
  })
  afterAll(async () => {
    await server.close()
  })

  it('hands the stored photo to the studio to cut ahead of its job, not a refused upload', async () => {
    const client = await signedInClient(server)
    expect((await upload(client, Buffer.from('not a photo'), 'notes.jpg')).status).toBe(415)
    expect(prepared).toHaveLength(0)
    const response = await upload(client, await makeJpeg(64, 64))
    expect(response.status).toBe(201)
    const { asset } = (await response.json()) as { asset: { id: string } }
    await vi.waitFor(() => expect(prepared).toHaveLength(1))
    const stored = Buffer.from(await (await client.request(`/api/assets/${asset.id}/file`)).arrayBuffer())
    expect(prepared[0]?.bytes.equals(stored)).toBe(true)
    expect(prepared[0]?.mime).toBe('image/jpeg')
    expect(prepared[0]?.sha256).toBe(createHash('sha256').update(stored).digest('hex'))
  })
})
