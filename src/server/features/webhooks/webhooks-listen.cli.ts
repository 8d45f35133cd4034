import { once } from 'node:events'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifyVitrinSignature } from '#docs/examples/verify-signature.ts'
import { webhookHeaders, webhookSecretPrefix } from '#shared/contracts/webhooks.ts'

// `npm run webhooks:listen -- --secret whsec_… [--port 4000] [--host 127.0.0.1]`: receives webhooks
// while developing (docs/api-quickstart.md, "Receiving webhooks while developing"). Each delivery
// is checked with the code receivers are told to copy (docs/examples/verify-signature.ts), printed
// with its event type, id and body, and answered 200, or 400 when its signature is not valid.
// The server must run with NODE_ENV=development and WEBHOOKS_ALLOW_LOOPBACK=true to send here.

const usage = 'usage: npm run webhooks:listen -- --secret whsec_… [--port 4000] [--host 127.0.0.1]'
/** Larger bodies are answered 413 unread: no Vitrin event comes near it. */
const maxBodyBytes = 1024 * 1024
const write = (line: string) => process.stdout.write(`${line}\n`)
const fail = (message: string): never => {
  process.stderr.write(`${message}\n${usage}\n`)
  process.exit(1)
}

function parseArgs(args: string[]): { secret: string; port: number; host: string } {
  const options: { secret?: string; port: number; host: string } = { port: 4000, host: '127.0.0.1' }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = args[i + 1]
    if (value === undefined || value.startsWith('--')) fail(`${arg} needs a value`)
    i++
    if (arg === '--secret') options.secret = value
    else if (arg === '--port') {
      if (!/^\d{1,5}$/.test(value ?? '') || Number(value) > 65535) fail(`--port: "${value}" is not a port`)
      options.port = Number(value)
    } else if (arg === '--host') options.host = value ?? ''
    else fail(`unknown option ${arg}`)
  }
  if (!options.secret) return fail('--secret is required: the endpoint secret from Settings → API → Webhooks')
  if (!options.secret.startsWith(webhookSecretPrefix))
    fail(`--secret: an endpoint secret starts with ${webhookSecretPrefix}`)
  return { ...options, secret: options.secret }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

/** The body as indented JSON, or as received when it is not JSON. */
function pretty(body: Buffer): string {
  const text = body.toString('utf8')
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

const { secret, port, host } = parseArgs(process.argv.slice(2))

const server = createServer((request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('POST only')
    return
  }
  const chunks: Buffer[] = []
  let size = 0
  request.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > maxBodyBytes) {
      response.writeHead(413, { connection: 'close', 'content-type': 'text/plain' }).end('too large')
      request.destroy()
      return
    }
    chunks.push(chunk)
  })
  request.on('end', () => {
    // The raw bytes, exactly as received, are what the signature covers.
    const body = Buffer.concat(chunks)
    const isValid = verifyVitrinSignature(body, header(request, webhookHeaders.signature), secret)
    const status = isValid ? 200 : 400
    write(
      [
        `${new Date().toISOString()} POST ${request.url ?? '/'}`,
        `  event: ${header(request, webhookHeaders.eventType) ?? '(no event type)'} ${header(request, webhookHeaders.eventId) ?? '(no event id)'}`,
        `  signature: ${isValid ? 'VALID' : 'INVALID'} → ${status}`,
        pretty(body),
        '',
      ].join('\n'),
    )
    response.writeHead(status, { 'content-type': 'text/plain' }).end(isValid ? 'ok' : 'invalid signature')
  })
})
server.listen(port, host)
server.once('error', (error) => fail(`cannot listen on ${host}:${port}: ${error.message}`))
await once(server, 'listening')
const { port: boundPort } = server.address() as AddressInfo
const shown = host.includes(':') ? `[${host}]` : host
write(`listening for webhooks on http://${shown}:${boundPort} (add it as an endpoint URL, any path)`)

const stop = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
