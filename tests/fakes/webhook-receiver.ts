import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { verifyVitrinSignature } from '#docs/examples/verify-signature.ts'
import { answerControl, argValue, closeServer, exitOnStop } from './control.ts'

// A webhook receiver for tests and for trying webhooks by hand: records every delivery, checks
// its signature with the very code the docs tell receivers to use (docs/examples/verify-signature.ts),
// and answers as scripted: 200 by default, or a status, a redirect, or no answer at all (timeout).

/** One scripted answer: a status to send, `redirect` (302 elsewhere), or `timeout` (never answers). */
export type ReceiverAnswer = number | 'redirect' | 'timeout'

export type ReceivedDelivery = {
  /** Date.now() when the request's body had arrived. */
  receivedAt: number
  path: string
  headers: IncomingMessage['headers']
  body: string
  eventId: string | undefined
  eventType: string | undefined
  /** The parsed body (null when it was not JSON). */
  event: unknown
  /** Whether the signature checks out with the path's secret; null when no secret is known for it. */
  isSignatureValid: boolean | null
  /** What was answered. */
  answer: ReceiverAnswer
}

export type WebhookReceiver = {
  /** `http://127.0.0.1:<port>`; endpoints are any path under it. */
  url: string
  received: ReceivedDelivery[]
  /** The secret that signs deliveries to `path` (every path when the path is `*`). */
  setSecret(path: string, secret: string): void
  /** Answers for the next requests to `path` (or `*`), in order; afterwards 200 again. */
  script(path: string, answers: ReceiverAnswer[]): void
  /** Called with every delivery as it arrives. */
  onDelivery(listener: (delivery: ReceivedDelivery) => void): () => void
  reset(): void
  close(): Promise<void>
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

export async function startWebhookReceiver(
  options: { port?: number; host?: string; control?: boolean } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = []
  const secrets = new Map<string, string>()
  const scripts = new Map<string, ReceiverAnswer[]>()
  const listeners = new Set<(delivery: ReceivedDelivery) => void>()
  const hanging = new Set<ServerResponse>()

  const nextAnswer = (path: string): ReceiverAnswer =>
    scripts.get(path)?.shift() ?? scripts.get('*')?.shift() ?? 200

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver')
      const raw = Buffer.concat(chunks)
      if (options.control && url.pathname.startsWith('/__control/')) {
        const answer = answerControl(request.method ?? 'GET', url, raw.toString('utf8'), {
          script(body, match) {
            const answers = body.answers
            if (!Array.isArray(answers)) return 'answers: an array of statuses, "redirect" or "timeout"'
            scripts.set(match ?? '*', answers as ReceiverAnswer[])
            if (typeof body.secret === 'string') secrets.set(match ?? '*', body.secret)
            return null
          },
          reset() {
            scripts.clear()
            received.length = 0
          },
          requests: received.map((delivery) => ({ ...delivery, match: delivery.path })),
        })
        response.writeHead(answer.status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(answer.body))
        return
      }
      const secret = secrets.get(url.pathname) ?? secrets.get('*')
      const signature = header(request, 'vitrin-signature')
      let event: unknown = null
      try {
        event = JSON.parse(raw.toString('utf8'))
      } catch {}
      const answer = nextAnswer(url.pathname)
      const delivery: ReceivedDelivery = {
        receivedAt: Date.now(),
        path: url.pathname,
        headers: request.headers,
        body: raw.toString('utf8'),
        eventId: header(request, 'vitrin-event-id'),
        eventType: header(request, 'vitrin-event-type'),
        event,
        isSignatureValid: secret === undefined ? null : verifyVitrinSignature(raw, signature, secret),
        answer,
      }
      received.push(delivery)
      for (const listener of listeners) listener(delivery)
      if (answer === 'timeout') {
        hanging.add(response)
        response.on('close', () => hanging.delete(response))
        return
      }
      if (answer === 'redirect') {
        response.writeHead(302, { location: '/moved' })
        response.end()
        return
      }
      response.writeHead(answer, { 'content-type': 'text/plain' })
      response.end(answer >= 200 && answer < 300 ? 'ok' : 'scripted failure')
    })
  })
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    received,
    setSecret: (path, secret) => secrets.set(path, secret),
    script: (path, answers) => scripts.set(path, [...answers]),
    onDelivery(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    reset() {
      received.length = 0
      scripts.clear()
    },
    close: () => {
      for (const response of hanging) response.destroy()
      return closeServer(server)
    },
  }
}

// While developing, `npm run webhooks:listen` (features/webhooks/webhooks-listen.cli.ts) is the
// documented receiver; this fake adds scripted answers for trying failures.
// By hand: `npx tsx tests/fakes/webhook-receiver.ts [--port 4700] [--secret whsec_…]`, then add
// http://127.0.0.1:4700/hooks as an endpoint in Settings → API with the app started with
// FETCH_ALLOW_PRIVATE_HOSTS=127.0.0.1:4700. Each delivery is printed with its signature check.
// Script answers with POST /__control/script {"answers":[500,"timeout","redirect"],"secret":"whsec_…"}.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const receiver = await startWebhookReceiver({
    port: Number(argValue(args, '--port') ?? 4700),
    host: argValue(args, '--host') ?? '127.0.0.1',
    control: true,
  })
  const secret = argValue(args, '--secret')
  if (secret) receiver.setSecret('*', secret)
  receiver.onDelivery((delivery) => {
    const check =
      delivery.isSignatureValid === null
        ? 'signature not checked (no --secret)'
        : `signature ${delivery.isSignatureValid ? 'valid' : 'INVALID'}`
    console.log(
      `${new Date(delivery.receivedAt).toISOString()} ${delivery.eventType} ${delivery.eventId} → ${delivery.answer}; ${check}`,
    )
  })
  console.log(`webhook receiver listening on ${receiver.url}`)
  exitOnStop(receiver.close)
}
