import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createSecureContext } from 'node:tls'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Logger } from '#server/logger.ts'
import { AppError } from '#shared/errors.ts'
import {
  type PublicRequestDeps,
  publicRequest,
  type ResolvedAddress,
  type Resolver,
} from './public-request.ts'

// Real HTTP servers on 127.0.0.1. The guard refuses loopback, so each test lets one host through
// by the test setting (allowPrivateHosts, i.e. FETCH_ALLOW_PRIVATE_HOSTS) and checks that
// everything else still is refused; names are answered by a resolver the test controls.

type Seen = {
  method: string
  path: string
  host: string | undefined
  authorization: string | undefined
  body: string
}
type TestServer = { port: number; origin: string; seen: Seen[] }
type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void

const servers: Server[] = []

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

async function listen(server: Server): Promise<number> {
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return (server.address() as AddressInfo).port
}

async function startServer(handler: Handler): Promise<TestServer> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        host: req.headers.host,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      seen.push(entry)
      handler(req, res, entry)
    })
  })
  const port = await listen(server)
  return { port, origin: `http://127.0.0.1:${port}`, seen }
}

/** A resolver answering from a table, recording every name it is asked. */
function tableResolver(table: Record<string, string[]>) {
  return vi.fn<Resolver>(async (hostname) => {
    const addresses = table[hostname]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }))
  })
}

function fakeLog() {
  const warn = vi.fn()
  return { log: { warn } as unknown as Logger, warn }
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }
  throw new Error('expected the request to be refused')
}

const noHosts: PublicRequestDeps = { allowPrivateHosts: [] }

describe('publicRequest: URLs refused before any lookup or connection', () => {
  it('relies on URL parsing to write every IPv4 spelling as dotted decimal', () => {
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1')
    expect(new URL('http://0x7f.1/').hostname).toBe('127.0.0.1')
    expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1')
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]')
  })

  it.each([
    ['file:///etc/passwd', 'URL_INVALID'],
    ['ftp://images.example.com/a.png', 'URL_INVALID'],
    ['gopher://images.example.com/', 'URL_INVALID'],
    ['ws://images.example.com/', 'URL_INVALID'],
    ['data:image/png;base64,iVBORw0KGgo=', 'URL_INVALID'],
    ['javascript:alert(1)', 'URL_INVALID'],
    ['not a url', 'URL_INVALID'],
    ['', 'URL_INVALID'],
    ['http://user:secret@images.example.com/a.png', 'URL_INVALID'],
    ['http://user@images.example.com/a.png', 'URL_INVALID'],
    ['https://images.example.com:8443/a.png', 'URL_INVALID'],
    ['http://images.example.com:22/', 'URL_INVALID'],
    ['http://127.0.0.1/', 'URL_NOT_PUBLIC'],
    ['http://127.0.0.1:8080/', 'URL_NOT_PUBLIC'],
    ['http://2130706433/', 'URL_NOT_PUBLIC'],
    ['http://0x7f.1/', 'URL_NOT_PUBLIC'],
    ['http://0x7f000001/', 'URL_NOT_PUBLIC'],
    ['http://0177.0.0.1/', 'URL_NOT_PUBLIC'],
    ['http://127.1/', 'URL_NOT_PUBLIC'],
    ['http://[::1]/', 'URL_NOT_PUBLIC'],
    ['http://[::ffff:127.0.0.1]/', 'URL_NOT_PUBLIC'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'URL_NOT_PUBLIC'],
    ['http://[fd00::1]/', 'URL_NOT_PUBLIC'],
    ['http://[fe80::1]/', 'URL_NOT_PUBLIC'],
    ['http://[::]/', 'URL_NOT_PUBLIC'],
    ['http://0.0.0.0/', 'URL_NOT_PUBLIC'],
    ['http://0/', 'URL_NOT_PUBLIC'],
    ['http://10.0.0.1/', 'URL_NOT_PUBLIC'],
    ['http://172.16.5.4/', 'URL_NOT_PUBLIC'],
    ['http://192.168.0.1/', 'URL_NOT_PUBLIC'],
    ['http://100.64.0.1/', 'URL_NOT_PUBLIC'],
    ['http://169.254.169.254/latest/meta-data/', 'URL_NOT_PUBLIC'],
    ['http://0xa9fea9fe/latest/meta-data/', 'URL_NOT_PUBLIC'],
    ['http://2852039166/latest/meta-data/', 'URL_NOT_PUBLIC'],
    ['http://[::ffff:169.254.169.254]/', 'URL_NOT_PUBLIC'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'URL_NOT_PUBLIC'],
    ['http://[2002:a9fe:a9fe::1]/', 'URL_NOT_PUBLIC'],
    ['http://224.0.0.1/', 'URL_NOT_PUBLIC'],
    ['http://255.255.255.255/', 'URL_NOT_PUBLIC'],
  ])('%s is %s', async (url, code) => {
    const resolve = tableResolver({})
    // A short deadline: a literal let through would try to connect and fail with another code.
    const error = await refusal(publicRequest({ ...noHosts, resolve }, { url, timeoutMs: 2_000 }))
    expect(error.code).toBe(code)
    expect(resolve).not.toHaveBeenCalled()
  })
})

describe('publicRequest: names and their addresses', () => {
  it('refuses localhost, which the system resolves to loopback', async () => {
    const error = await refusal(publicRequest(noHosts, { url: 'http://localhost/', timeoutMs: 5_000 }))
    expect(error.code).toBe('URL_NOT_PUBLIC')
  })

  it.each([
    [['93.184.216.34', '10.0.0.5']],
    [['10.0.0.5', '93.184.216.34']],
    [['2606:4700:4700::1111', 'fd00::5']],
    [['93.184.216.34', '::ffff:127.0.0.1']],
    [['93.184.216.34', '169.254.169.254']],
  ])('refuses a name when any of its addresses %j is not public', async (addresses) => {
    const resolve = tableResolver({ 'shop.example.com': addresses })
    const error = await refusal(
      publicRequest({ ...noHosts, resolve }, { url: 'https://shop.example.com/a.png' }),
    )
    expect(error.code).toBe('URL_NOT_PUBLIC')
    expect(resolve).toHaveBeenCalledTimes(1)
  })

  it('logs the cause and keeps it out of the message', async () => {
    const { log, warn } = fakeLog()
    const resolve = tableResolver({ 'shop.example.com': ['93.184.216.34', '10.0.0.5'] })
    const error = await refusal(
      publicRequest({ ...noHosts, resolve, log }, { url: 'https://shop.example.com/a.png' }),
    )
    expect(error.message).not.toContain('10.0.0.5')
    expect(warn).toHaveBeenCalledTimes(1)
    expect(JSON.stringify(warn.mock.calls[0])).toContain('10.0.0.5')
    expect(warn.mock.calls[0]?.[0]).toMatchObject({
      code: 'URL_NOT_PUBLIC',
      origin: 'https://shop.example.com',
    })
  })

  it('answers URL_UNREACHABLE when the name does not resolve or the connection is refused', async () => {
    const resolve = tableResolver({ 'empty.example.com': [] })
    expect(
      (await refusal(publicRequest({ ...noHosts, resolve }, { url: 'http://nowhere.example.com/' }))).code,
    ).toBe('URL_UNREACHABLE')
    expect(
      (await refusal(publicRequest({ ...noHosts, resolve }, { url: 'http://empty.example.com/' }))).code,
    ).toBe('URL_UNREACHABLE')
    const closed = await startServer((_req, res) => res.end())
    servers.pop()?.close()
    await new Promise((resolveClose) => setImmediate(resolveClose))
    const error = await refusal(
      publicRequest({ allowPrivateHosts: ['127.0.0.1'] }, { url: `${closed.origin}/` }),
    )
    expect(error.code).toBe('URL_UNREACHABLE')
  })
})

describe('publicRequest: the connection goes to the address that was checked', () => {
  it('asks the resolver once and connects to its answer, not to a later one', async () => {
    const server = await startServer((_req, res) => res.end('pinned'))
    let calls = 0
    // A rebinding name: public-looking first, then somewhere else. Here the first answer is the
    // test server (let through by the test setting); a second lookup would get an address
    // nothing listens on, and the system resolver does not know the name at all.
    const resolve = vi.fn<Resolver>(async () => {
      calls++
      return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.9', family: 4 }]
    })
    const response = await publicRequest(
      { allowPrivateHosts: [`images.example.test:${server.port}`], resolve },
      { url: `http://images.example.test:${server.port}/photo.png` },
    )
    expect(response.status).toBe(200)
    expect(response.body.toString()).toBe('pinned')
    expect(resolve).toHaveBeenCalledTimes(1)
    expect(resolve).toHaveBeenCalledWith('images.example.test')
    expect(server.seen).toEqual([
      expect.objectContaining({ path: '/photo.png', host: `images.example.test:${server.port}` }),
    ])
  })

  it('resolves each redirect hop once', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/1') res.writeHead(302, { location: '/2' }).end()
      else if (req.url === '/2')
        res.writeHead(301, { location: `http://images.example.test:${server.port}/3` }).end()
      else res.end('done')
    })
    const resolve = tableResolver({ 'images.example.test': ['127.0.0.1'] })
    const response = await publicRequest(
      { allowPrivateHosts: ['images.example.test'], resolve },
      { url: `http://images.example.test:${server.port}/1` },
    )
    expect(response.body.toString()).toBe('done')
    expect(response.url).toBe(`http://images.example.test:${server.port}/3`)
    expect(resolve).toHaveBeenCalledTimes(3)
    expect(server.seen.map((s) => s.path)).toEqual(['/1', '/2', '/3'])
  })

  it('speaks TLS to the checked address with the host name for SNI and certificate checks', async () => {
    // Self-signed for images.example.test, valid until 2126; the guard must not trust it.
    const key = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgu81PQPE4bm5Fx3Lq
9X+qn3tu/YqAUVMZ99H1aUBNYN6hRANCAAQKGm3TIIh9XPYe2UKkwQ6MeYywQKH+
Y3cNCatCc4XAxSWCEeFGE7rZX1IPZEr0XZSzvu/UK2pS3yhC1gD4jWty
-----END PRIVATE KEY-----`
    const cert = `-----BEGIN CERTIFICATE-----
MIIBsjCCAVmgAwIBAgIUZ7xeMN//EMFbwjPaReur4MPFNmIwCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTaW1hZ2VzLmV4YW1wbGUudGVzdDAgFw0yNjExMjQwMjE0NDda
GA8yMTI2MTAzMTAyMTQ0N1owHjEcMBoGA1UEAwwTaW1hZ2VzLmV4YW1wbGUudGVz
dDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABAoabdMgiH1c9h7ZQqTBDox5jLBA
of5jdw0Jq0JzhcDFJYIR4UYTutlfUg9kSvRdlLO+79QralLfKELWAPiNa3KjczBx
MB0GA1UdDgQWBBR6cF96UccRLhFdi+B/ODv0o3lfMDAfBgNVHSMEGDAWgBR6cF96
UccRLhFdi+B/ODv0o3lfMDAPBgNVHRMBAf8EBTADAQH/MB4GA1UdEQQXMBWCE2lt
YWdlcy5leGFtcGxlLnRlc3QwCgYIKoZIzj0EAwIDRwAwRAIgRsYz9f3mobHk+yGi
iUeFvncP4cSoSlUrfoOSolwtE6QCIA3onKBXWDHBrwQfTynk58eFM8pG7eh0+JQv
yJum4gJa
-----END CERTIFICATE-----`
    const serverNames: string[] = []
    const context = createSecureContext({ key, cert })
    const server = createHttpsServer(
      {
        key,
        cert,
        SNICallback: (name, callback) => {
          serverNames.push(name)
          callback(null, context)
        },
      },
      (_req, res) => res.end('secret'),
    )
    const port = await listen(server)
    const resolve = tableResolver({ 'images.example.test': ['127.0.0.1'] })
    const error = await refusal(
      publicRequest(
        { allowPrivateHosts: ['images.example.test'], resolve },
        { url: `https://images.example.test:${port}/` },
      ),
    )
    expect(error.code).toBe('URL_UNREACHABLE')
    expect(serverNames).toEqual(['images.example.test'])
  })
})

describe('publicRequest: redirects', () => {
  it('follows five redirects and refuses the sixth', async () => {
    const server = await startServer((req, res) => {
      const step = Number(req.url?.slice(1))
      res.writeHead(307, { location: `/${step + 1}` }).end()
    })
    const deps = { allowPrivateHosts: ['127.0.0.1'] }
    const error = await refusal(publicRequest(deps, { url: `${server.origin}/0` }))
    expect(error.code).toBe('URL_BAD_STATUS')
    expect(server.seen.map((s) => s.path)).toEqual(['/0', '/1', '/2', '/3', '/4', '/5'])

    const chain = await startServer((req, res) => {
      const step = Number(req.url?.slice(1))
      if (step < 5) res.writeHead(302, { location: `/${step + 1}` }).end()
      else res.end('arrived')
    })
    const response = await publicRequest(deps, { url: `${chain.origin}/0` })
    expect(response.body.toString()).toBe('arrived')
  })

  it('refuses a redirect to a private address, though the first host was let through', async () => {
    const inside = await startServer((_req, res) => res.end('internal'))
    const outside = await startServer((_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/admin` }).end(),
    )
    const error = await refusal(
      publicRequest({ allowPrivateHosts: [`127.0.0.1:${outside.port}`] }, { url: `${outside.origin}/a.png` }),
    )
    expect(error.code).toBe('URL_NOT_PUBLIC')
    expect(outside.seen).toHaveLength(1)
    expect(inside.seen).toEqual([])
  })

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'URL_NOT_PUBLIC'],
    ['http://[::ffff:10.0.0.1]/', 'URL_NOT_PUBLIC'],
    ['http://internal.example.test/', 'URL_NOT_PUBLIC'],
    ['file:///etc/passwd', 'URL_INVALID'],
    ['http://images.example.com:6379/', 'URL_INVALID'],
  ])('refuses a redirect to %s', async (location, code) => {
    const server = await startServer((_req, res) => res.writeHead(301, { location }).end())
    const resolve = tableResolver({ 'internal.example.test': ['93.184.216.34', '10.0.0.7'] })
    const error = await refusal(
      publicRequest(
        { allowPrivateHosts: [`127.0.0.1:${server.port}`], resolve },
        { url: `${server.origin}/` },
      ),
    )
    expect(error.code).toBe(code)
  })

  it('drops the Authorization header when a redirect leaves the origin', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/start')
        res.writeHead(302, { location: `http://other.example.test:${server.port}/next` }).end()
      else res.end('ok')
    })
    const resolve = tableResolver({ 'one.example.test': ['127.0.0.1'], 'other.example.test': ['127.0.0.1'] })
    await publicRequest(
      { allowPrivateHosts: ['one.example.test', 'other.example.test'], resolve },
      { url: `http://one.example.test:${server.port}/start`, headers: { authorization: 'Bearer t' } },
    )
    expect(server.seen.map((s) => [s.path, s.authorization])).toEqual([
      ['/start', 'Bearer t'],
      ['/next', undefined],
    ])
  })

  it('sends a POST once and returns its redirect instead of following it', async () => {
    const server = await startServer((_req, res) => res.writeHead(307, { location: '/elsewhere' }).end())
    const response = await publicRequest(
      { allowPrivateHosts: ['127.0.0.1'] },
      {
        method: 'POST',
        url: `${server.origin}/hook`,
        headers: { 'content-type': 'application/json' },
        body: '{"event":"ping"}',
      },
    )
    expect(response.status).toBe(307)
    expect(server.seen).toEqual([
      expect.objectContaining({ method: 'POST', path: '/hook', body: '{"event":"ping"}' }),
    ])
  })
})

describe('publicRequest: size and time', () => {
  const deps = { allowPrivateHosts: ['127.0.0.1'] }

  it('refuses a declared length over the cap without waiting for the body', async () => {
    // The body never comes: a guard that waited for it would end on the deadline instead.
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '1001' })
      res.flushHeaders()
    })
    const error = await refusal(
      publicRequest(deps, { url: `${server.origin}/`, maxBytes: 1000, timeoutMs: 10_000 }),
    )
    expect(error.code).toBe('URL_TOO_LARGE')
  })

  it('stops reading at the first byte past the cap', async () => {
    let closed: Promise<unknown> = Promise.resolve()
    // No length, and the response never ends: only stopping while streaming can answer.
    const server = await startServer((_req, res) => {
      closed = once(res, 'close')
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      res.write(Buffer.alloc(600))
      res.write(Buffer.alloc(401))
    })
    const error = await refusal(
      publicRequest(deps, { url: `${server.origin}/`, maxBytes: 1000, timeoutMs: 10_000 }),
    )
    expect(error.code).toBe('URL_TOO_LARGE')
    // The guard hung up: the server sees its response closed before it ended.
    await closed
  })

  it('accepts a body of exactly the cap', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.alloc(1000, 7)))
    const response = await publicRequest(deps, { url: `${server.origin}/`, maxBytes: 1000 })
    expect(response.body).toEqual(Buffer.alloc(1000, 7))
  })

  it('gives up at the deadline when no answer comes', async () => {
    const server = await startServer(() => {})
    const started = performance.now()
    const error = await refusal(publicRequest(deps, { url: `${server.origin}/`, timeoutMs: 200 }))
    expect(error.code).toBe('URL_TIMEOUT')
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('gives up at the deadline when the body stalls', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' })
      res.write('only a part')
    })
    const error = await refusal(publicRequest(deps, { url: `${server.origin}/`, timeoutMs: 300 }))
    expect(error.code).toBe('URL_TIMEOUT')
  })

  it('counts the lookup against the deadline', async () => {
    const resolve = vi.fn<Resolver>(() => new Promise(() => {}))
    const error = await refusal(
      publicRequest({ ...noHosts, resolve }, { url: 'http://slow.example.com/', timeoutMs: 200 }),
    )
    expect(error.code).toBe('URL_TIMEOUT')
  })

  it("throws the caller's own abort reason as it is", async () => {
    const server = await startServer(() => {})
    const controller = new AbortController()
    const pending = publicRequest(deps, { url: `${server.origin}/`, signal: controller.signal })
    await vi.waitFor(() => expect(server.seen).toHaveLength(1))
    const reason = new Error('shutting down')
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
  })
})
