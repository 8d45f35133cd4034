import { once } from 'node:events'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import { AppError } from '#shared/errors.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { maxUploadBytes } from './image-intake.ts'
import { fetchRemoteImage } from './remote-image.ts'

const servers: Server[] = []

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

/** A real HTTP server on 127.0.0.1; its origin, and the allow-list entry that lets the guard reach it. */
async function serve(handler: RequestListener): Promise<{ origin: string; allowPrivateHosts: string[] }> {
  const server = createServer(handler)
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, allowPrivateHosts: [`127.0.0.1:${port}`] }
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return (error as AppError).code
  }
  throw new Error('expected the fetch to be refused')
}

describe('fetchRemoteImage', () => {
  it('returns the photo checked and cleaned like an upload', async () => {
    // An EXIF orientation of 6 (rotate 90°) as a phone writes it: the upload path applies and strips it.
    const photo = await sharp(await productPhoto({ width: 320, height: 200 }))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer()
    const { origin, allowPrivateHosts } = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo),
    )
    const image = await fetchRemoteImage({ allowPrivateHosts }, `${origin}/bottle.jpg`)
    expect(image).toMatchObject({ mime: 'image/jpeg', width: 200, height: 320 })
    expect((await sharp(image.bytes).metadata()).orientation).toBeUndefined()
  })

  it('judges the bytes, not the declared type', async () => {
    const { origin, allowPrivateHosts } = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end('<html>not a photo</html>'),
    )
    expect(await codeOf(fetchRemoteImage({ allowPrivateHosts }, `${origin}/a.png`))).toBe('FILE_TYPE_INVALID')
  })

  it('answers URL_BAD_STATUS for a link that does not answer 2xx', async () => {
    const { origin, allowPrivateHosts } = await serve((_req, res) => res.writeHead(404).end('gone'))
    expect(await codeOf(fetchRemoteImage({ allowPrivateHosts }, `${origin}/a.png`))).toBe('URL_BAD_STATUS')
  })

  it('refuses a file over the upload limit, whatever the caller asks for', async () => {
    const { origin, allowPrivateHosts } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(maxUploadBytes + 1) })
      res.flushHeaders()
    })
    expect(
      await codeOf(
        fetchRemoteImage({ allowPrivateHosts }, `${origin}/big.jpg`, { maxBytes: maxUploadBytes * 2 }),
      ),
    ).toBe('URL_TOO_LARGE')
  })

  it('refuses the same server when the test setting does not name it', async () => {
    const { origin } = await serve((_req, res) => res.end())
    expect(await codeOf(fetchRemoteImage({ allowPrivateHosts: [] }, `${origin}/a.png`))).toBe(
      'URL_NOT_PUBLIC',
    )
  })
})
