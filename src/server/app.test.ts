import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ErrorBody } from '#shared/errors.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { precompressAssets } from '../../scripts/lib/precompress.ts'
import { createApp } from './app.ts'
import { createServices } from './services.ts'

/** A GET that sends the path exactly as written. */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** A GET whose answer is read as bytes, as sent: no decoding of a Content-Encoding (fetch decodes). */
function rawGetBytes(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** The CSP as directive → sources, e.g. { 'script-src': ["'self'"] }. */
function parseCsp(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy()
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...sources]) => [name as string, sources]),
  )
}

function expectSecurityHeaders(response: Response) {
  expect(response.headers.get('x-request-id')).toMatch(/\S/)
  const csp = parseCsp(response.headers.get('content-security-policy'))
  expect(csp['script-src']).toEqual(["'self'"])
  expect(csp['frame-ancestors']).toEqual(["'none'"])
  expect(csp['object-src']).toEqual(["'none'"])
  expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline')
  expect(response.headers.get('content-security-policy')).not.toContain('unsafe-eval')
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
}

describe('the app, without a built web app', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      SUPPORT_EMAIL: 'help@vitrin.test',
      SMTP_URL: 'smtp://mailer:smtp-password-123@mail.vitrin.test:587',
      PUBLIC_URL: 'https://vitrin.test',
    })
  })
  afterAll(async () => {
    await server.close()
  })

  it.each([
    ['GET', '/healthz'],
    ['GET', '/api/public-config'],
    ['GET', '/api/no-such-thing'],
    ['POST', '/api/contact'],
    ['GET', '/'],
  ])('puts a request id and the security headers on %s %s', async (method, path) => {
    const response = await server.api(path, { method })
    expectSecurityHeaders(response)
  })

  it('gives each request its own id, and echoes a well-formed incoming one', async () => {
    const a = await server.api('/healthz')
    const b = await server.api('/healthz')
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'))
    const echoed = await server.api('/healthz', { headers: { 'X-Request-Id': 'lb-7f3a9c-0042' } })
    expect(echoed.headers.get('x-request-id')).toBe('lb-7f3a9c-0042')
  })

  it('answers an unknown API path with 404 in the error wire shape, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await server.api('/api/nope/deeper', {
        method,
        headers: { 'X-Request-Id': `missing-${method}` },
      })
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toContain('application/json')
      const body = (await response.json()) as ErrorBody
      expect(body).toEqual({
        error: { code: 'NOT_FOUND', message: expect.any(String), requestId: `missing-${method}` },
      })
      expect(body.error.message.length).toBeGreaterThan(0)
    }
  })

  it('does not serve the SPA fallback for unknown API paths', async () => {
    const response = await server.api('/api/pricing')
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('NOT_FOUND')
  })

  it('publishes the support email and nothing secret in /api/public-config', async () => {
    const response = await server.api('/api/public-config')
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({ supportEmail: 'help@vitrin.test' })
    expect(text).not.toContain(server.config.appSecret ?? '<no secret>')
    expect(text).not.toContain('smtp-password-123')
    expect(text).not.toMatch(/secret|password|smtp|database/i)
  })

  it('does not mount the test hooks unless asked to', async () => {
    for (const path of ['/api/test/outbox', '/api/test/contact-messages']) {
      const response = await server.api(path)
      expect(response.status).toBe(404)
      expect((await response.json()).error.code).toBe('NOT_FOUND')
    }
  })

  it('answers 503 with a hint to build when there is no web app to serve', async () => {
    for (const path of ['/', '/pricing']) {
      const response = await server.api(path)
      expect(response.status).toBe(503)
      expect(await response.text()).toContain('npm run build')
    }
  })
})

describe('the app with test hooks enabled', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ ENABLE_TEST_HOOKS: 'true', SUPPORT_EMAIL: 'hooks@vitrin.test' })
  })
  afterAll(async () => {
    await server.close()
  })

  it('lists the outbox and stored contact messages', async () => {
    const empty = await server.api('/api/test/outbox')
    expect(empty.status).toBe(200)
    expect(await empty.json()).toEqual({ emails: [] })

    const sent = await server.api('/api/contact', {
      json: { name: 'Can', email: 'can@example.com', message: 'Hello' },
    })
    expect(sent.status).toBe(201)

    const outbox = await (await server.api('/api/test/outbox?to=hooks%40vitrin.test')).json()
    expect(outbox.emails).toHaveLength(1)
    expect(outbox.emails[0]).toMatchObject({ toAddress: 'hooks@vitrin.test', replyTo: 'can@example.com' })
    const otherAddress = await (await server.api('/api/test/outbox?to=else%40vitrin.test')).json()
    expect(otherAddress.emails).toEqual([])

    const messages = await (await server.api('/api/test/contact-messages?email=can%40example.com')).json()
    expect(messages.messages).toHaveLength(1)
    expect(messages.messages[0]).toMatchObject({ name: 'Can', message: 'Hello' })
  })
})

describe('the app in production', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ NODE_ENV: 'production', PUBLIC_URL: 'https://vitrin.test' })
  })
  afterAll(async () => {
    await server.close()
  })

  it('adds HSTS and upgrades insecure requests', async () => {
    const response = await server.api('/healthz')
    expect(response.headers.get('strict-transport-security')).toContain('max-age=31536000')
    expect(parseCsp(response.headers.get('content-security-policy'))).toHaveProperty(
      'upgrade-insecure-requests',
    )
  })
})

describe('serving the built web app', () => {
  const indexHtml =
    '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>'
  const bigScript = `export const rows = [\n${Array.from({ length: 400 }, (_, i) => `  { id: ${i}, label: 'row ${i}' },`).join('\n')}\n]\n`
  let dist: string
  let server: TestServer

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'vitrin-dist-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), indexHtml)
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), bigScript)
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    server = await startTestServer({ WEB_DIST_DIR: dist })
  })
  afterAll(async () => {
    await server.close()
    rmSync(dist, { recursive: true, force: true })
  })

  it('serves hashed assets cached for a year, as immutable', async () => {
    const response = await server.api('/assets/app-abc123.js')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/javascript/)
    const cacheControl = response.headers.get('cache-control') ?? ''
    expect(cacheControl).toContain('immutable')
    expect(cacheControl).toContain('max-age=31536000')
    expect(await response.text()).toBe(bigScript)
    expectSecurityHeaders(response)
  })

  it("sends the build's brotli or gzip copy of an asset as it is, and the plain file to a client that takes neither", async () => {
    const compressed = precompressAssets(dist)
    expect(compressed).toBe(1)
    try {
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
      ] as const) {
        const response = await rawGetBytes(server.url, '/assets/app-abc123.js', { 'accept-encoding': accept })
        expect(response.status).toBe(200)
        expect(response.headers['content-encoding']).toBe(encoding)
        expect(String(response.headers.vary)).toContain('Accept-Encoding')
        expect(response.headers['cache-control']).toContain('immutable')
        expect(response.headers['content-type']).toMatch(/javascript/)
        // The bytes on the wire are the file the build wrote, not compressed again.
        const wire = response.body
        const copy = join(dist, 'assets', `app-abc123.js.${encoding === 'br' ? 'br' : 'gz'}`)
        expect(wire.equals(readFileSync(copy))).toBe(true)
        expect(decode(wire).toString()).toBe(bigScript)
      }
      const plain = await rawGetBytes(server.url, '/assets/app-abc123.js', { 'accept-encoding': 'identity' })
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.body.toString()).toBe(bigScript)
    } finally {
      rmSync(join(dist, 'assets', 'app-abc123.js.br'))
      rmSync(join(dist, 'assets', 'app-abc123.js.gz'))
    }
  })

  it("serves index.html, never cached, for the app's and the public pages, and redirects any other path home", async () => {
    // No prerendered pages in this build: public pages get the shell too.
    for (const path of ['/', '/app/create', '/tr/pricing?plan=growth']) {
      const response = await server.api(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type')).toContain('text/html')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(await response.text()).toBe(indexHtml)
      expectSecurityHeaders(response)
    }
    for (const [path, home] of [
      ['/some/client/route', '/'],
      ['/index.html', '/'],
      ['/tr/some/client/route', '/tr/'],
    ] as const) {
      const response = await server.api(path, { redirect: 'manual' })
      expect(response.status, path).toBe(302)
      expect(response.headers.get('location'), path).toBe(home)
      expectSecurityHeaders(response)
    }
  })

  it('serves other files cached for an hour', async () => {
    const response = await server.api('/favicon.svg')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('image/svg+xml')
    const cacheControl = response.headers.get('cache-control') ?? ''
    expect(cacheControl).toContain('max-age=3600')
    expect(cacheControl).not.toContain('immutable')
  })

  it('compresses a large asset for a client that accepts gzip', async () => {
    const response = await server.api('/assets/app-abc123.js', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    // fetch decompresses transparently: the content is intact.
    expect(await response.text()).toBe(bigScript)
  })

  it('sends the asset uncompressed to a client that does not accept compression', async () => {
    const response = await server.api('/assets/app-abc123.js', { headers: { 'Accept-Encoding': 'identity' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.text()).toBe(bigScript)
  })

  it('still answers API paths with JSON, not index.html', async () => {
    const response = await server.api('/api/whatever')
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('NOT_FOUND')
  })

  it('never serves a file outside the dist dir', async () => {
    writeFileSync(join(dist, '..', `${basename(dist)}-outside.txt`), 'outside secret')
    try {
      // Raw paths: fetch would normalise the dot segments away before sending.
      for (const path of [
        `/assets/../../${basename(dist)}-outside.txt`,
        `/../${basename(dist)}-outside.txt`,
        `/assets/%2e%2e/%2e%2e/${basename(dist)}-outside.txt`,
      ]) {
        const { status, body } = await rawGet(server.url, path)
        expect(body, path).not.toContain('outside secret')
        // A path that is no page is sent home (302); never the file.
        expect([200, 302, 400, 403, 404], path).toContain(status)
      }
    } finally {
      rmSync(join(dist, '..', `${basename(dist)}-outside.txt`), { force: true })
    }
  })
})

describe('createApp', () => {
  it('builds the app from its dependencies alone: no file or folder made, no model started', async () => {
    const server = await startTestServer()
    try {
      // createAppDeps made the incoming folder; with it gone, a second app leaves it gone.
      rmSync(server.deps.incomingDir, { recursive: true, force: true })
      const started: string[] = []
      const segmenter = {
        ready: async () => void started.push('ready'),
        segment: async () => {
          started.push('segment')
          throw new Error('not used here')
        },
        close: async () => {},
      }
      const app = createApp(createServices({ ...server.deps, segmenter }))
      expect(existsSync(server.deps.incomingDir)).toBe(false)
      expect(started).toEqual([])
      expect((await app.request('/healthz')).status).toBe(200)
    } finally {
      await server.close()
    }
  })
})
