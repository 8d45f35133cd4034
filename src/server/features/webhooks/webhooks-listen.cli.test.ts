import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { once } from 'node:events'
import { type AddressInfo, createServer } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { webhookDispatcherOptions } from '#server/jobs/worker-runtime.ts'
import { publicRequest } from '#server/net/public-request.ts'
import type { CreateWebhookEndpointResponse, WebhookDeliveryResponse } from '#shared/contracts/webhooks.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import { testEngine } from '#tests/support/test-database.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { deliverDueWebhooks } from './deliver.ts'
import { signWebhookBody } from './webhooks.service.ts'

// Receiving webhooks while developing (docs/api-quickstart.md): a server with NODE_ENV=development
// and WEBHOOKS_ALLOW_LOOPBACK=true sends real, signed deliveries through the public-address guard
// to `npm run webhooks:listen`, run here as a developer runs it, as a child process.

type Listener = {
  url: string
  /** Resolves with everything printed so far once `pattern` appears in the output. */
  waitFor(pattern: RegExp): Promise<string>
  stop(): Promise<void>
}

const listeners: Listener[] = []

async function startListener(args: string[]): Promise<Listener> {
  const child: ChildProcessWithoutNullStreams = spawn(
    'tsx',
    ['src/server/features/webhooks/webhooks-listen.cli.ts', ...args],
    { env: { ...process.env } },
  )
  let output = ''
  let errors = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text
    child.emit('output')
  })
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    errors += text
  })
  const exited = once(child, 'exit')
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return
        child.off('output', check)
        child.off('exit', onExit)
        resolve(output)
      }
      const onExit = (code: number | null) =>
        reject(new Error(`the listener exited (${code}) before ${pattern}: ${output}${errors}`))
      child.on('output', check)
      child.once('exit', onExit)
      check()
    })
  const started = await waitFor(/listening for webhooks on (http:\/\/127\.0\.0\.1:\d+)/)
  const listener: Listener = {
    url: /listening for webhooks on (http:\/\/127\.0\.0\.1:\d+)/.exec(started)?.[1] ?? '',
    waitFor,
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await exited
    },
  }
  listeners.push(listener)
  return listener
}

/** A port nothing listens on (the endpoint is created before the listener takes it). */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

describe(`npm run webhooks:listen (${testEngine})`, () => {
  let development: TestServer
  let withoutSetting: TestServer
  beforeAll(async () => {
    development = await startTestServer({ NODE_ENV: 'development', WEBHOOKS_ALLOW_LOOPBACK: 'true' })
    withoutSetting = await startTestServer()
  })
  afterEach(async () => {
    for (const listener of listeners.splice(0)) await listener.stop()
  })
  afterAll(async () => {
    await development.close()
    await withoutSetting.close()
  })

  it('receives a signed delivery from the dispatcher at a loopback endpoint in development and prints it as valid', async () => {
    const pro = await signedInClient(development, 'pro')
    const port = await freePort()
    const created = await pro.request('/api/webhooks', {
      json: { url: `http://127.0.0.1:${port}/hooks`, events: ['generation.succeeded'] },
    })
    expect(created.status).toBe(201)
    const { endpoint, secret } = (await created.json()) as CreateWebhookEndpointResponse
    const listener = await startListener(['--secret', secret, '--port', String(port)])
    expect(listener.url).toBe(`http://127.0.0.1:${port}`)

    const test = await pro.request(`/api/webhooks/${endpoint.id}/test`, { method: 'POST' })
    expect(test.status).toBe(202)
    const { delivery } = (await test.json()) as WebhookDeliveryResponse
    // One round of the dispatcher, with the options the worker runs it with.
    const { attempts } = await deliverDueWebhooks(webhookDispatcherOptions(development.deps), {
      workerId: 'test',
      limit: 10,
      leaseMs: 30_000,
    })
    expect(await Promise.all(attempts)).toEqual([{ kind: 'delivered' }])
    const printed = await listener.waitFor(/signature: (VALID|INVALID)/)
    expect(printed).toContain(`event: webhook.test ${delivery.eventId}`)
    expect(printed).toContain('signature: VALID → 200')
    expect(printed).toContain(`  "type": "webhook.test",`)
    expect(printed).toContain(`"endpointId": "${endpoint.id}"`)

    // localhost and [::1] are this machine too; other private ranges stay refused.
    for (const url of [`http://localhost:${port}/a`, `http://[::1]:${port}/b`]) {
      expect(
        (await pro.request('/api/webhooks', { json: { url, events: ['batch.completed'] } })).status,
      ).toBe(201)
    }
    for (const url of ['http://10.0.0.8/x', 'http://192.168.1.2:4000/x', 'http://169.254.169.254/x']) {
      const refused = await pro.request('/api/webhooks', { json: { url, events: ['batch.completed'] } })
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as ErrorBody).error.code).toBe('URL_NOT_PUBLIC')
    }
  }, 60_000)

  it('keeps refusing loopback targets without the setting, when saved and when sent', async () => {
    const listener = await startListener(['--secret', 'whsec_unused', '--port', '0'])
    const pro = await signedInClient(withoutSetting, 'pro')
    const refused = await pro.request('/api/webhooks', {
      json: { url: `${listener.url}/hooks`, events: ['batch.completed'] },
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as ErrorBody).error.code).toBe('URL_NOT_PUBLIC')
    await expect(
      publicRequest(webhookDispatcherOptions(withoutSetting.deps).fetch, {
        method: 'POST',
        url: `${listener.url}/hooks`,
        body: '{}',
      }),
    ).rejects.toMatchObject({ code: 'URL_NOT_PUBLIC' })
  }, 60_000)

  it('prints a wrongly signed POST as INVALID and answers 400', async () => {
    const listener = await startListener(['--secret', 'whsec_right', '--port', '0'])
    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', data: {} })
    const response = await fetch(`${listener.url}/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'vitrin-signature': signWebhookBody('whsec_wrong', Math.floor(Date.now() / 1000), body),
        'vitrin-event-id': 'evt_1',
        'vitrin-event-type': 'webhook.test',
      },
      body,
    })
    expect(response.status).toBe(400)
    const printed = await listener.waitFor(/signature: (VALID|INVALID)/)
    expect(printed).toContain('event: webhook.test evt_1')
    expect(printed).toContain('signature: INVALID → 400')
    expect(printed).not.toContain('signature: VALID')
  }, 60_000)

  it('refuses to start without a whsec_ secret', async () => {
    const child = spawn('tsx', ['src/server/features/webhooks/webhooks-listen.cli.ts', '--port', '0'])
    let errors = ''
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      errors += text
    })
    const [code] = await once(child, 'close')
    expect(code).toBe(1)
    expect(errors).toContain('--secret is required')
  }, 60_000)
})
