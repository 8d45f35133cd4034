import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import type { BatchView, CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type {
  PublicAssetResponse,
  PublicBatch,
  PublicGeneration,
  PublicGenerationList,
  PublicGenerationResponse,
  PublicSeoCopy,
} from '#shared/contracts/public-api.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { csvOf, productRow, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { createScriptedProviders, makeJpeg } from '#tests/support/fake-providers.ts'
import { signedInClient, usage } from '#tests/support/generation-client.ts'
import { type OpenApiContract, openApiContract, type V1Client } from '#tests/support/openapi-contract.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'

// The /v1 endpoints over real HTTP with a worker on scripted providers. Every /v1 answer here
// goes through the contract (tests/support/openapi-contract.ts): its status, content type and
// body must be what /v1/openapi.json documents.

describe('the public API (/v1)', () => {
  const fake = createScriptedProviders()
  let server: TestServer
  let contract: OpenApiContract
  beforeAll(async () => {
    server = await startTestServer(
      { TRUST_PROXY: 'true', IMAGE_PROVIDER: 'fal', VIDEO_PROVIDER: 'fal', GENERATIONS_PER_MINUTE: '1000' },
      { providers: fake.providers },
    )
    contract = await openApiContract(server)
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    fake.script.image.length = 0
    fake.script.video.length = 0
    fake.script.seo.length = 0
    fake.calls.length = 0
  })
  afterAll(async () => {
    await server.close()
  })

  type Integration = { web: TestClient; api: V1Client; key: string; keyId: string }

  /** A Pro user (signed in on the web, for setting up) with an API key and a /v1 client using it. */
  async function proIntegration(): Promise<Integration> {
    const web = await signedInClient(server, 'pro')
    const created = await web.request('/api/api-keys', { json: { name: 'shop sync' } })
    expect(created.status).toBe(201)
    const { key, secret } = (await created.json()) as CreateApiKeyResponse
    return { web, api: contract.client(secret), key: secret, keyId: key.id }
  }

  async function uploadVia(api: V1Client, bytes: Buffer, name = 'cup.jpg', type = 'image/jpeg') {
    const body = new FormData()
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
    return api.request('/v1/assets', { method: 'POST', body })
  }

  async function uploadedPhoto(api: V1Client): Promise<string> {
    const response = await uploadVia(api, await makeJpeg(400, 300))
    expect(response.status).toBe(201)
    return ((await response.json()) as PublicAssetResponse).asset.id
  }

  async function generate(api: V1Client, body: Record<string, unknown>): Promise<PublicGeneration> {
    const response = await api.request('/v1/generations', { json: body })
    expect(response.status).toBe(202)
    return ((await response.json()) as PublicGenerationResponse).generation
  }

  async function generation(api: V1Client, id: string): Promise<PublicGeneration> {
    const response = await api.request(`/v1/generations/${id}`)
    expect(response.status).toBe(200)
    return ((await response.json()) as PublicGenerationResponse).generation
  }

  async function settled(api: V1Client, id: string, statuses: PublicGeneration['status'][]) {
    let latest: PublicGeneration | null = null
    await expect
      .poll(
        async () => {
          latest = await generation(api, id)
          return statuses.includes(latest.status)
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(true)
    return latest as unknown as PublicGeneration
  }

  async function expectError(response: Response, status: number, code: string) {
    const body = (await response.json()) as ErrorBody
    expect({ status: response.status, code: body.error.code }).toEqual({ status, code })
    expect(body.error.requestId).toBe(response.headers.get('x-request-id'))
  }

  it('serves its OpenAPI 3.1 document without a key: bearer keys, every operation secured, Idempotency-Key on POSTs', async () => {
    const response = await fetch(`${server.url}/v1/openapi.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    // biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
    const document = contract.document as Record<string, any>
    expect(document.openapi).toBe('3.1.0')
    expect(document.info.version).toBe('1.0.0')
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }])
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(document.components.securitySchemes.bearerAuth.description).toContain('vtr_')
    const operations = Object.entries(
      document.paths as Record<string, Record<string, typeof document>>,
    ).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    )
    expect(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual([
      'DELETE /v1/connections/{marketplace}',
      'GET /v1/batches',
      'GET /v1/batches/{id}',
      'GET /v1/connections/{marketplace}',
      'GET /v1/generations',
      'GET /v1/generations/{id}',
      'GET /v1/generations/{id}/result',
      'GET /v1/usage',
      'POST /v1/assets',
      'POST /v1/generations',
      'POST /v1/generations/{id}/cancel',
      'PUT /v1/connections/{marketplace}',
    ])
    for (const { method, operation } of operations) {
      expect(operation.security).toEqual([{ bearerAuth: [] }])
      expect(
        operation.responses['401'].content['application/json'].schema.properties.error.properties.code.enum,
      ).toEqual(['API_KEY_REQUIRED', 'API_KEY_INVALID'])
      expect(Object.keys(operation.responses['429'].headers)).toEqual(
        expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      )
      const hasIdempotencyKey = (operation.parameters ?? []).some(
        (parameter: { name: string; in: string }) =>
          parameter.name === 'Idempotency-Key' && parameter.in === 'header',
      )
      expect(hasIdempotencyKey).toBe(method === 'post')
    }
    // Every operation is named, so generated clients name their functions after it.
    expect(
      Object.fromEntries(
        operations.map(({ method, path, operation }) => [
          `${method.toUpperCase()} ${path}`,
          operation.operationId,
        ]),
      ),
    ).toEqual({
      'POST /v1/assets': 'createAsset',
      'POST /v1/generations': 'createGeneration',
      'GET /v1/generations': 'listGenerations',
      'GET /v1/generations/{id}': 'getGeneration',
      'POST /v1/generations/{id}/cancel': 'cancelGeneration',
      'GET /v1/generations/{id}/result': 'getGenerationResult',
      'GET /v1/usage': 'getUsage',
      'GET /v1/batches': 'listBatches',
      'GET /v1/batches/{id}': 'getBatch',
      'PUT /v1/connections/{marketplace}': 'upsertConnection',
      'GET /v1/connections/{marketplace}': 'getConnection',
      'DELETE /v1/connections/{marketplace}': 'deleteConnection',
    })
    // Closed sets are enums; the upload is binary; the result is described per content type.
    const createBody = document.paths['/v1/generations'].post.requestBody.content['application/json'].schema
    const createSchema = createBody.$ref
      ? document.components.schemas[createBody.$ref.split('/').pop()]
      : createBody
    expect(createSchema.properties.mode.enum).toEqual(['image', 'video', 'seo'])
    expect(createSchema.properties.tool.enum).toEqual(['product', 'fashion'])
    expect(createSchema.additionalProperties).toBe(false)
    // The scene's camera angle: a closed set, `auto` by default, explained.
    expect(createSchema.properties.view).toMatchObject({ enum: ['auto', 'top', 'front'], default: 'auto' })
    expect(createSchema.properties.view.description).toMatch(/from above/)
    // The seller's facts are documented, with examples, as one named shape.
    const details = document.components.schemas.ProductDetails
    expect(Object.keys(details.properties)).toEqual(
      expect.arrayContaining(['name', 'color', 'description', 'features']),
    )
    expect(details.properties.color.examples).toEqual(['Kırmızı'])
    expect(details.properties.features).toMatchObject({ type: 'array', maxItems: 6 })
    expect(details.examples?.[0]).toMatchObject({
      color: 'Kırmızı',
      features: ['2 kişilik takım', '90 ml fincan'],
    })
    expect(
      document.paths['/v1/assets'].post.requestBody.content['multipart/form-data'].schema.properties.file,
    ).toMatchObject({ type: 'string', format: 'binary' })
    const result = document.paths['/v1/generations/{id}/result'].get.responses['200'].content
    expect(Object.keys(result).sort()).toEqual(['application/json', 'image/jpeg', 'image/png', 'video/mp4'])
    expect(result['image/png'].schema).toMatchObject({ type: 'string', format: 'binary' })
    expect(
      document.paths['/v1/generations'].post.responses['415'].content['application/json'].schema.properties
        .error.properties.code.enum,
    ).toEqual(['UNSUPPORTED_MEDIA_TYPE'])
    // The events webhooks send, each with its payload's schema.
    expect(Object.keys(document.webhooks).sort()).toEqual([
      'batch.completed',
      'generation.failed',
      'generation.succeeded',
      'publication.failed',
      'publication.succeeded',
      'webhook.test',
    ])
    expect(
      document.webhooks['generation.succeeded'].post.requestBody.content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/GenerationSucceededEvent',
    })
    // A product's outcome on a marketplace, named like the others.
    for (const [type, name] of [
      ['publication.succeeded', 'PublicationSucceeded'],
      ['publication.failed', 'PublicationFailed'],
    ] as const) {
      expect(document.webhooks[type].post).toMatchObject({
        operationId: `${name.slice(0, 1).toLowerCase()}${name.slice(1)}Webhook`,
        requestBody: {
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Event` } } },
        },
      })
    }
    expect(
      Object.keys(
        document.components.schemas.PublicationFailedEvent.properties.data.properties.publication.properties,
      ),
    ).toEqual(
      expect.arrayContaining([
        'id',
        'marketplace',
        'barcode',
        'status',
        'reasons',
        'productUrl',
        'generationId',
      ]),
    )
    // The shapes are named components, and nothing in them links to the cookie-only /api routes.
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Generation',
        'GenerationList',
        'Asset',
        'Usage',
        'Batch',
        'BatchList',
        'SeoCopy',
      ]),
    )
    expect(JSON.stringify(document)).not.toContain('/api/')
  })

  it('uploads, generates, follows and downloads an image, all with the key', async () => {
    const { api, web } = await proIntegration()
    // Larger than the 64 KB JSON limit: uploads stream under their own.
    const photo = await sharp({
      create: {
        width: 600,
        height: 400,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer()
    expect(photo.length).toBeGreaterThan(64 * 1024)
    const uploaded = await uploadVia(api, photo, 'kupa.jpg')
    expect(uploaded.status).toBe(201)
    const { asset } = (await uploaded.json()) as PublicAssetResponse
    expect(asset).toMatchObject({ kind: 'upload', mime: 'image/jpeg', width: 600, height: 400 })

    const accepted = await generate(api, {
      mode: 'image',
      imageAssetId: asset.id,
      prompt: 'on marble',
      keepProduct: false,
    })
    expect(accepted).toMatchObject({
      status: 'queued',
      mode: 'image',
      tool: 'product',
      inputAssetId: asset.id,
      result: null,
    })
    expect((await usage(web)).images.used).toBe(1)

    const done = await settled(api, accepted.id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
    expect(done.result).toMatchObject({ type: 'image', productKept: null })
    if (done.result?.type !== 'image') throw new Error('expected an image')
    expect(done.result.file.url).toBe(`/v1/generations/${done.id}/result`)

    const file = await api.request(done.result.file.url)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('image/jpeg')
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="${done.result.file.fileName}"; filename*=UTF-8''${done.result.file.fileName}`,
    )
    const bytes = Buffer.from(await file.arrayBuffer())
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 108, height: 108 })
    // The same file the web app serves for that result.
    const viaWeb = (await (await web.request(`/api/generations/${done.id}`)).json()) as {
      generation: { result: { image: { url: string } } }
    }
    expect(Buffer.from(await (await web.request(viaWeb.generation.result.image.url)).arrayBuffer())).toEqual(
      bytes,
    )
  })

  it('carries the scene’s camera angle to the image provider and back, `auto` when not asked', async () => {
    const { api } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    const chosen = await generate(api, { mode: 'image', imageAssetId, prompt: 'marble', view: 'top' })
    expect(chosen.view).toBe('top')
    const done = await settled(api, chosen.id, ['succeeded', 'failed'])
    expect(done).toMatchObject({ status: 'succeeded', view: 'top' })
    // An AI provider's result names no drawn view: only the offline studio draws one.
    expect(done.result).toMatchObject({ type: 'image', sceneView: null })
    const left = await generate(api, { mode: 'image', imageAssetId, prompt: 'marble' })
    expect(left.view).toBe('auto')
    await settled(api, left.id, ['succeeded', 'failed'])
    expect(fake.calls.filter((call) => call.kind === 'image.start').map((call) => call.view)).toEqual([
      'top',
      'auto',
    ])
  })

  it('answers SEO copy as the result, and 409 before a result exists', async () => {
    const { api } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    fake.script.image.push({ hang: true })
    const running = await generate(api, { mode: 'image', imageAssetId })
    await settled(api, running.id, ['running'])
    await expectError(await api.request(`/v1/generations/${running.id}/result`), 409, 'GENERATION_NOT_READY')
    // One user runs one job at a time on a default worker: the hanging one makes way for the copy.
    await api.request(`/v1/generations/${running.id}/cancel`, { method: 'POST' })

    const seo = await generate(api, {
      mode: 'seo',
      imageAssetId,
      details: {
        name: 'Deri cüzdan',
        color: 'Taba',
        description: 'Hakiki deri, el dikişi cüzdan.',
        features: ['6 kart bölmesi', 'Bozuk para cebi'],
      },
    })
    const done = await settled(api, seo.id, ['succeeded'])
    // The seller gave the colour: nothing in the copy is a guess from the photo.
    expect(done.result).toMatchObject({ type: 'seo', title: 'Deri Cüzdan', colourFromPhoto: null })
    const result = await api.request(`/v1/generations/${seo.id}/result`)
    expect(result.status).toBe(200)
    expect(result.headers.get('content-disposition')).toContain(`vitrin-seo-${seo.id.slice(0, 8)}.json`)
    const copy = (await result.json()) as PublicSeoCopy
    expect(copy).toEqual({
      title: 'Deri Cüzdan',
      description: 'El yapımı deri cüzdan.',
      features: ['Deri', 'El yapımı', 'İnce', 'Dayanıklı'],
      keywords: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
    })
  })

  it('cancels a running generation and gives its quota back', async () => {
    const { api, web } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    fake.script.image.push({ hang: true })
    const accepted = await generate(api, { mode: 'image', imageAssetId })
    await settled(api, accepted.id, ['running'])
    expect((await usage(web)).images.used).toBe(1)

    const canceled = await api.request(`/v1/generations/${accepted.id}/cancel`, { method: 'POST' })
    expect(canceled.status).toBe(200)
    const after = await settled(api, accepted.id, ['canceled'])
    expect(after.errorCode).toBe('GENERATION_CANCELED')
    expect((await usage(web)).images.used).toBe(0)
    // Canceling a finished one answers it as it is.
    const again = await api.request(`/v1/generations/${accepted.id}/cancel`, { method: 'POST' })
    expect(((await again.json()) as PublicGenerationResponse).generation.status).toBe('canceled')
  })

  it('lists generations newest first in cursor pages, filtered by status, mode and tool', async () => {
    const { api } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    fake.script.image.push('rejected')
    const failed = await generate(api, { mode: 'image', imageAssetId })
    await settled(api, failed.id, ['failed'])
    const ids = [failed.id]
    for (const body of [
      { mode: 'image', imageAssetId },
      { mode: 'seo', imageAssetId, details: { name: 'Kupa' } },
      { mode: 'image', tool: 'fashion', imageAssetId },
      { mode: 'image', imageAssetId },
    ]) {
      const created = await generate(api, body)
      await settled(api, created.id, ['succeeded'])
      ids.push(created.id)
    }
    const newestFirst = [...ids].reverse()

    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2'
      const response = await api.request(`/v1/generations${query}`)
      expect(response.status).toBe(200)
      const page = (await response.json()) as PublicGenerationList
      expect(page.items.length).toBeLessThanOrEqual(2)
      seen.push(...page.items.map((item) => item.id))
      cursor = page.nextCursor
      pages += 1
    } while (cursor && pages < 10)
    expect(pages).toBe(3)
    expect(seen).toEqual(newestFirst)

    const list = async (query: string) => {
      const response = await api.request(`/v1/generations?${query}`)
      expect(response.status).toBe(200)
      return ((await response.json()) as PublicGenerationList).items.map((item) => item.id)
    }
    expect(await list('status=failed')).toEqual([failed.id])
    expect(await list('mode=seo')).toEqual([ids[2]])
    expect(await list('tool=fashion')).toEqual([ids[3]])
    expect(await list('tool=product&mode=image&status=succeeded')).toEqual([ids[4], ids[1]])
    // A filtered page's cursor continues under the same filter.
    const first = (await (
      await api.request('/v1/generations?mode=image&limit=1')
    ).json()) as PublicGenerationList
    expect(first.items.map((item) => item.id)).toEqual([ids[4]])
    const next = await api.request(`/v1/generations?mode=image&limit=1&cursor=${first.nextCursor}`)
    expect(((await next.json()) as PublicGenerationList).items.map((item) => item.id)).toEqual([ids[3]])

    await expectError(await api.request('/v1/generations?cursor=not-a-cursor'), 400, 'VALIDATION_FAILED')
    const badFilter = await api.request('/v1/generations?status=done')
    expect(((await badFilter.clone().json()) as ErrorBody).error.details?.fields).toEqual({
      status: 'invalid',
    })
    await expectError(badFilter, 400, 'VALIDATION_FAILED')
  })

  it('refuses bad requests with the web app’s codes', async () => {
    const { api } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    const invalid = await api.request('/v1/generations', { json: { mode: 'image' } })
    expect(((await invalid.clone().json()) as ErrorBody).error.details?.fields).toEqual({
      imageAssetId: 'required',
    })
    await expectError(invalid, 400, 'VALIDATION_FAILED')
    await expectError(
      await api.request('/v1/generations', { json: { mode: 'hologram', imageAssetId } }),
      400,
      'INVALID_GENERATION_MODE',
    )
    await expectError(
      await api.request('/v1/generations', { json: { mode: 'seo', imageAssetId, keepProduct: true } }),
      400,
      'VALIDATION_FAILED',
    )
    await expectError(
      await api.request('/v1/generations', {
        method: 'POST',
        body: 'mode=image',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    await expectError(
      await api.request('/v1/generations', {
        method: 'POST',
        body: '{"mode":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'INVALID_JSON',
    )
    await expectError(
      await api.request('/v1/generations', {
        json: { mode: 'image', imageAssetId, prompt: 'x'.repeat(70_000) },
      }),
      413,
      'PAYLOAD_TOO_LARGE',
    )
    await expectError(
      await api.request('/v1/assets', { method: 'POST', body: new FormData() }),
      400,
      'FILE_MISSING',
    )
    await expectError(await uploadVia(api, Buffer.from('not a photo'), 'a.jpg'), 415, 'FILE_TYPE_INVALID')
    // A key of a plan without the API.
    const { api: starterApi, web } = await proIntegration()
    await web.request('/api/billing/subscription', { json: { planId: 'starter' } })
    await expectError(await starterApi.request('/v1/generations'), 403, 'API_PLAN_REQUIRED')
  })

  it('answers a JSON body sent without a JSON Content-Type with 415 UNSUPPORTED_MEDIA_TYPE, never a 500', async () => {
    const { api } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    const body = JSON.stringify({ mode: 'image', imageAssetId })
    // fetch gives a string body text/plain; a Blob without a type sends no Content-Type at all.
    const types: Record<string, string>[] = [
      {},
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]
    for (const headers of types) {
      const response = await api.request('/v1/generations', {
        method: 'POST',
        body: new Blob([body]),
        headers,
      })
      await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE')
    }
    // With the type it is taken.
    const typed = await api.request('/v1/generations', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(typed.status).toBe(202)
  })

  it('refuses unknown body fields and query parameters with 400, naming them', async () => {
    const { api } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    const unknownField = await api.request('/v1/generations', {
      json: { mode: 'image', imageAssetId, aspect_ratio: '9:16', details: { name: 'Kupa', colour: 'red' } },
    })
    const body = (await unknownField.clone().json()) as ErrorBody
    expect(body.error.details?.fields).toEqual({ aspect_ratio: 'unknown', 'details.colour': 'unknown' })
    expect(body.error.message).toContain('aspect_ratio')
    await expectError(unknownField, 400, 'VALIDATION_FAILED')
    // Nothing was started.
    expect(((await (await api.request('/v1/generations')).json()) as PublicGenerationList).items).toEqual([])

    const unknownQuery = await api.request('/v1/generations?limit=5&sort=asc')
    expect(((await unknownQuery.clone().json()) as ErrorBody).error.details?.fields).toEqual({
      sort: 'unknown',
    })
    await expectError(unknownQuery, 400, 'VALIDATION_FAILED')
    // The web list's library-only filter is not part of /v1.
    await expectError(await api.request('/v1/generations?saved=1'), 400, 'VALIDATION_FAILED')
    for (const path of [
      '/v1/usage?verbose=1',
      '/v1/batches?page=2',
      `/v1/generations/${imageAssetId}?expand=result`,
    ]) {
      const response = await api.request(path)
      expect(((await response.clone().json()) as ErrorBody).error.details?.fields).toEqual({
        [path.split('?')[1]?.split('=')[0] ?? '']: 'unknown',
      })
      await expectError(response, 400, 'VALIDATION_FAILED')
    }
    // An upload takes its one documented part, `file`; another part is named, nothing stored.
    const jpeg = new Blob([new Uint8Array(await makeJpeg(40, 30))], { type: 'image/jpeg' })
    for (const [part, problem, extra] of [
      ['photo', 'unknown', (form: FormData) => form.append('photo', jpeg, 'b.jpg')],
      ['caption', 'unknown', (form: FormData) => form.append('caption', 'kırmızı kupa')],
      ['file', 'invalid', (form: FormData) => form.append('file', jpeg, 'b.jpg')],
    ] as const) {
      const form = new FormData()
      form.append('file', jpeg, 'a.jpg')
      extra(form)
      const refused = await api.request('/v1/assets', { method: 'POST', body: form })
      expect(((await refused.clone().json()) as ErrorBody).error.details?.fields).toEqual({ [part]: problem })
      await expectError(refused, 400, 'VALIDATION_FAILED')
    }
    const onlyOther = new FormData()
    onlyOther.append('image', jpeg, 'c.jpg')
    await expectError(
      await api.request('/v1/assets', { method: 'POST', body: onlyOther }),
      400,
      'VALIDATION_FAILED',
    )
    // A cancel takes no body: what one holds is named, and the generation is left as it was.
    const seoJob = await generate(api, { mode: 'seo', imageAssetId, details: { name: 'Kupa' } })
    const cancelWithBody = await api.request(`/v1/generations/${seoJob.id}/cancel`, {
      json: { reason: 'duplicate' },
    })
    expect(((await cancelWithBody.clone().json()) as ErrorBody).error.details?.fields).toEqual({
      reason: 'unknown',
    })
    await expectError(cancelWithBody, 400, 'VALIDATION_FAILED')
    const cancelWithText = await api.request(`/v1/generations/${seoJob.id}/cancel`, {
      method: 'POST',
      body: 'now',
      headers: { 'content-type': 'text/plain' },
    })
    await expectError(cancelWithText, 400, 'VALIDATION_FAILED')
    expect((await generation(api, seoJob.id)).status).not.toBe('canceled')
    // The documented name of the field is taken.
    expect(
      (await api.request('/v1/generations', { json: { mode: 'image', imageAssetId, aspectRatio: '9:16' } }))
        .status,
    ).toBe(202)
  })

  it('refuses a malformed Idempotency-Key on every POST with a documented 400', async () => {
    const { api } = await proIntegration()
    const imageAssetId = await uploadedPhoto(api)
    const id = '7f1c0b7e-9d0a-4c55-9f0e-2b1f3c4d5e6f'
    const bad = { 'idempotency-key': 'k'.repeat(256) }
    const photo = new FormData()
    photo.append('file', new Blob([new Uint8Array(await makeJpeg(40, 30))], { type: 'image/jpeg' }), 'a.jpg')
    for (const [path, init] of [
      ['/v1/assets', { method: 'POST', body: photo, headers: bad }],
      ['/v1/generations', { json: { mode: 'image', imageAssetId }, headers: bad }],
      [`/v1/generations/${id}/cancel`, { method: 'POST', headers: bad }],
      [`/v1/generations/${id}/cancel`, { method: 'POST', headers: { 'idempotency-key': '' } }],
    ] as const) {
      const response = await api.request(path, init)
      await expectError(response, 400, 'VALIDATION_FAILED')
    }
    // The documented parameter is exactly what the server takes.
    // biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
    const parameter = (contract.document as any).paths['/v1/generations'].post.parameters.find(
      (p: { name: string }) => p.name === 'Idempotency-Key',
    )
    expect(parameter.schema).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7e]+$',
    })
  })

  it('shows catalogue batches read-only, with /v1 result links', async () => {
    const { api, web } = await proIntegration()
    const rows = [productRow(1), productRow(2)]
    const form = (field: string, bytes: Buffer, name: string) => {
      const body = new FormData()
      body.append(field, new Blob([new Uint8Array(bytes)]), name)
      return body
    }
    const imported = (await (
      await web.request('/api/catalogue/imports', {
        method: 'POST',
        body: form('list', csvOf(rows), 'urunler.csv'),
      })
    ).json()) as CatalogueImportView
    const photo = await makeJpeg(80, 60)
    const zip = await zipOf(rows.map((_, i) => ({ name: `SKU-${i + 1}.jpg`, data: photo, store: true })))
    const batchId = imported.batch.id
    expect(
      (
        await web.request(`/api/catalogue/batches/${batchId}/photos`, {
          method: 'POST',
          body: form('photos', zip, 'p.zip'),
        })
      ).status,
    ).toBe(200)
    const started = await web.request(`/api/catalogue/batches/${batchId}/start`, {
      json: { outputs: { studio: { prompt: 'on linen' } } },
    })
    expect(started.status).toBe(200)

    const listed = await api.request('/v1/batches')
    expect(listed.status).toBe(200)
    expect(((await listed.json()) as { items: { id: string; productCount: number }[] }).items).toEqual([
      expect.objectContaining({ id: batchId, productCount: 2, fileName: 'urunler.csv' }),
    ])
    let batch: PublicBatch | null = null
    await expect
      .poll(
        async () => {
          const response = await api.request(`/v1/batches/${batchId}`)
          batch = (await response.json()) as PublicBatch
          return batch.status
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe('finished')
    const finished = batch as unknown as PublicBatch
    expect(finished.counts).toEqual({ queued: 0, running: 0, done: 2, failed: 0, canceled: 0 })
    expect(finished.rows.map((row) => row.sku)).toEqual(['SKU-1', 'SKU-2'])
    for (const row of finished.rows) {
      const [output] = row.outputs
      expect(output?.resultUrl).toBe(`/v1/generations/${output?.generationId}/result`)
      const file = await api.request(output?.resultUrl ?? '')
      expect(file.status).toBe(200)
      expect(file.headers.get('content-type')).toBe('image/jpeg')
    }
    // The web app's own view of it is unchanged.
    expect(
      ((await (await web.request(`/api/catalogue/batches/${batchId}`)).json()) as BatchView).batch.status,
    ).toBe('finished')
  })

  it('never reveals another account’s things: their ids answer 404', async () => {
    const alice = await proIntegration()
    const bob = await proIntegration()
    const aliceAsset = await uploadedPhoto(alice.api)
    const aliceJob = await generate(alice.api, {
      mode: 'seo',
      imageAssetId: aliceAsset,
      details: { name: 'Kupa' },
    })
    await settled(alice.api, aliceJob.id, ['succeeded'])
    const imported = (await (
      await alice.web.request('/api/catalogue/imports', {
        method: 'POST',
        body: (() => {
          const body = new FormData()
          body.append('list', new Blob([new Uint8Array(csvOf([productRow(1)]))]), 'a.csv')
          return body
        })(),
      })
    ).json()) as CatalogueImportView

    await expectError(await bob.api.request(`/v1/generations/${aliceJob.id}`), 404, 'NOT_FOUND')
    await expectError(await bob.api.request(`/v1/generations/${aliceJob.id}/result`), 404, 'NOT_FOUND')
    await expectError(
      await bob.api.request(`/v1/generations/${aliceJob.id}/cancel`, { method: 'POST' }),
      404,
      'NOT_FOUND',
    )
    await expectError(await bob.api.request(`/v1/batches/${imported.batch.id}`), 404, 'NOT_FOUND')
    await expectError(
      await bob.api.request('/v1/generations', { json: { mode: 'image', imageAssetId: aliceAsset } }),
      404,
      'NOT_FOUND',
    )
    await expectError(await bob.api.request('/v1/generations/not-a-uuid'), 404, 'NOT_FOUND')
    expect(((await (await bob.api.request('/v1/generations')).json()) as PublicGenerationList).items).toEqual(
      [],
    )
    expect(((await (await bob.api.request('/v1/batches')).json()) as { items: unknown[] }).items).toEqual([])
  })

  it('refuses every endpoint without a key, with a revoked key, and with the session cookie alone', async () => {
    const { web, key, keyId } = await proIntegration()
    const id = '7f1c0b7e-9d0a-4c55-9f0e-2b1f3c4d5e6f'
    const endpoints: [string, string][] = [
      ['POST', '/v1/assets'],
      ['POST', '/v1/generations'],
      ['GET', '/v1/generations'],
      ['GET', `/v1/generations/${id}`],
      ['POST', `/v1/generations/${id}/cancel`],
      ['GET', `/v1/generations/${id}/result`],
      ['GET', '/v1/usage'],
      ['GET', '/v1/batches'],
      ['GET', `/v1/batches/${id}`],
    ]
    const anonymous = contract.client()
    for (const [method, path] of endpoints) {
      await expectError(await anonymous.request(path, { method }), 401, 'API_KEY_REQUIRED')
      // The web session's cookie does not count on /v1.
      const withCookie = await web.request(path, { method })
      await contract.check(method, path, withCookie)
      await expectError(withCookie, 401, 'API_KEY_REQUIRED')
    }
    await web.request(`/api/api-keys/${keyId}`, { method: 'DELETE' })
    const revoked = contract.client(key)
    for (const [method, path] of endpoints) {
      await expectError(await revoked.request(path, { method }), 401, 'API_KEY_INVALID')
    }
  })

  it('serves the reference page and its Scalar bundle from this origin, its CSP adding inline styles only', async () => {
    const page = await fetch(`${server.url}/docs/api`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const html = await page.text()
    expect(html).toContain('<script id="api-reference" data-url="/v1/openapi.json"')
    expect(html).toContain('<script src="/docs/api/scalar.js"></script>')
    expect(html).not.toMatch(/<script>|<style|https?:\/\//)
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain("style-src 'self' 'unsafe-inline';")
    expect(csp).toContain("connect-src 'self';")
    // Elsewhere the app's own CSP stands.
    const elsewhere = await fetch(`${server.url}/docs/api/scalar.js`)
    expect(elsewhere.headers.get('content-security-policy')).toContain("style-src 'self';")
    expect(elsewhere.status).toBe(200)
    expect(elsewhere.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(elsewhere.headers.get('cache-control')).toBe('public, max-age=86400')
    expect((await elsewhere.text()).length).toBeGreaterThan(1_000_000)
    const etag = elsewhere.headers.get('etag') ?? ''
    const again = await fetch(`${server.url}/docs/api/scalar.js`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })

  it('answers usage as the web app does', async () => {
    const { api, web } = await proIntegration()
    const response = await api.request('/v1/usage')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(await (await web.request('/api/usage')).json())
  })

  it('reached every documented operation with a success, each answer as documented', () => {
    // Connections need the marketplaces' fakes: public-api.connections.test.ts reaches those.
    expect(contract.untested().filter((operation) => !operation.includes('/v1/connections/'))).toEqual([])
    expect(contract.calls.length).toBeGreaterThan(50)
  })
})
