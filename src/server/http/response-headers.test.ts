import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInClient, uploadPhoto } from '#tests/support/generation-client.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** A POST with headers fetch will not send as given (Host), e.g. a browser at another address. */
function rawPost(baseUrl: string, path: string, headers: Record<string, string>): Promise<number> {
  const { hostname, port } = new URL(baseUrl)
  const body = JSON.stringify({})
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

describe('caching of API answers', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('marks signed-in answers and errors no-store, and keeps public-config cacheable', async () => {
    const client = await signedInClient(server)
    for (const path of ['/api/billing', '/api/settings', '/api/usage']) {
      const response = await client.request(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('cache-control'), path).toBe('no-store')
    }
    const assetId = await uploadPhoto(client)
    const asset = await client.request(`/api/assets/${assetId}`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toBe('no-store')

    const signedOut = await server.api('/api/billing')
    expect(signedOut.status).toBe(401)
    expect(signedOut.headers.get('cache-control')).toBe('no-store')
    const invalid = await server.api('/api/contact', { json: {} })
    expect(invalid.status).toBe(400)
    expect(invalid.headers.get('cache-control')).toBe('no-store')
    const missing = await server.api('/api/no-such-thing')
    expect(missing.headers.get('cache-control')).toBe('no-store')

    expect((await server.api('/api/public-config')).headers.get('cache-control')).toBe('public, max-age=300')
  })

  it('serves an asset file private and revalidated, answering 304 to its ETag', async () => {
    const client = await signedInClient(server)
    const assetId = await uploadPhoto(client)
    const first = await client.request(`/api/assets/${assetId}/file`)
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^"[^"]+"$/)
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(0)

    const again = await client.request(`/api/assets/${assetId}/file`, {
      headers: { 'if-none-match': etag ?? '' },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect((await again.arrayBuffer()).byteLength).toBe(0)

    const changed = await client.request(`/api/assets/${assetId}/file`, {
      headers: { 'if-none-match': '"other"' },
    })
    expect(changed.status).toBe(200)
    await changed.arrayBuffer()

    // The check is made for the owner only: a stranger with the ETag still gets 404.
    const stranger = await signedInClient(server)
    const stolen = await stranger.request(`/api/assets/${assetId}/file`, {
      headers: { 'if-none-match': etag ?? '' },
    })
    expect(stolen.status).toBe(404)
  })

  it('forbids framing with X-Frame-Options as well as the CSP', async () => {
    for (const path of ['/healthz', '/api/public-config', '/']) {
      expect((await server.api(path)).headers.get('x-frame-options'), path).toBe('DENY')
    }
  })
})

describe('the origin check compares schemes', () => {
  let withPublicUrl: TestServer
  let behindProxy: TestServer
  beforeAll(async () => {
    withPublicUrl = await startTestServer({ PUBLIC_URL: 'https://vitrin.test' })
    behindProxy = await startTestServer({ TRUST_PROXY: 'true' })
  })
  afterAll(async () => {
    await withPublicUrl.close()
    await behindProxy.close()
  })

  // An empty contact form: 400 once past the origin check, 403 when refused by it.
  it('refuses an http origin of the host PUBLIC_URL serves over https', async () => {
    const post = (origin: string) =>
      rawPost(withPublicUrl.url, '/api/contact', { host: 'vitrin.test', origin })
    expect(await post('http://vitrin.test')).toBe(403)
    expect(await post('https://vitrin.test')).toBe(400)
    expect(await post('https://evil.test')).toBe(403)
  })

  it('takes the scheme from X-Forwarded-Proto behind a trusted proxy', async () => {
    const post = (origin: string, proto: string) =>
      rawPost(behindProxy.url, '/api/contact', { host: 'shop.test', origin, 'x-forwarded-proto': proto })
    expect(await post('http://shop.test', 'https')).toBe(403)
    expect(await post('https://shop.test', 'https')).toBe(400)
    expect(await post('http://shop.test', 'http')).toBe(400)
    expect(await post('https://shop.test.evil.test', 'https')).toBe(403)
  })

  it('still accepts its own origin when nothing says which scheme it is served on', async () => {
    const post = (origin: string) => rawPost(behindProxy.url, '/api/contact', { host: 'plain.test', origin })
    expect(await post('http://plain.test')).toBe(400)
    expect(await post('https://plain.test')).toBe(400)
    expect(await post('http://other.test')).toBe(403)
  })
})
