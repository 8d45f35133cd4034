import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staleIncomingMs } from '#server/deps.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

// A photo ZIP is received into DATA_DIR/incoming before it is checked. One whose upload never
// finishes must not stay there: it goes as soon as the request fails, and what a stopped process
// left behind goes when the server starts.

function zipsIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.zip'))
}

describe('photo ZIPs in the incoming folder', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('removes the partial file at once when the browser goes away mid-upload', async () => {
    const client = await signedInClient(server)
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const incoming = join(server.config.dataDir, 'incoming')
    expect(zipsIn(incoming)).toEqual([])

    const boundary = `----vitrin${randomUUID()}`
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="fotoğraflar.zip"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    )
    // A 5 MB upload announced, a quarter of it sent, then the connection is dropped.
    const upload = httpRequest(`${server.url}/api/catalogue/batches/${randomUUID()}/photos`, {
      method: 'POST',
      headers: {
        cookie,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + 5_000_000 + boundary.length + 8),
      },
    })
    upload.on('error', () => {})
    upload.write(head)
    upload.write(Buffer.alloc(1_250_000, 7))

    // The server is writing it: a file with bytes in it.
    await expect
      .poll(() => zipsIn(incoming).reduce((sum, name) => sum + statSync(join(incoming, name)).size, 0), {
        timeout: 10_000,
        interval: 20,
      })
      .toBeGreaterThan(0)
    upload.destroy()

    // Gone within seconds, not hours.
    await expect.poll(() => zipsIn(incoming), { timeout: 5_000, interval: 20 }).toEqual([])
    // The server is still fine.
    expect((await server.api('/healthz')).status).toBe(200)
  })
})

describe('the incoming folder at start', () => {
  it('sweeps files a stopped process left, keeping ones written in the last minutes and folders', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-incoming-start-'))
    const incoming = join(dataDir, 'incoming')
    mkdirSync(incoming, { recursive: true })
    const left = join(incoming, `photos-${randomUUID()}.zip`)
    const current = join(incoming, `photos-${randomUUID()}.zip`)
    writeFileSync(left, 'half a zip')
    writeFileSync(current, 'an upload under way')
    mkdirSync(join(incoming, 'vitrin-export-x'))
    // Left an hour ago: well past the sweep's age, far short of the old 6 hours.
    const hourAgo = new Date(Date.now() - 3_600_000)
    utimesSync(left, hourAgo, hourAgo)
    expect(staleIncomingMs).toBeLessThan(3_600_000)

    const server = await startTestServer({ DATA_DIR: dataDir })
    try {
      expect(readdirSync(incoming).sort()).toEqual([current.split('/').pop(), 'vitrin-export-x'].sort())
    } finally {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
