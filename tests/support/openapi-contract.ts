import Ajv2020Module from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { TestServer } from './test-server.ts'

// The /v1 contract check: every answer a /v1 test receives is held against /v1/openapi.json.
// An answer whose operation, status or content type the document does not list fails, and a JSON
// body must validate against the documented schema (errors included: each status documents the
// codes it may carry). Used by the public API's tests and by idempotency, rate-limit and webhook
// tests alike: make one contract per test file, then call /v1 through `contract.client(key)`
// (or pass responses got another way to `contract.check`).

// ajv is CommonJS; under Node's ESM the default import is the module object or the class.
type AjvClass = typeof import('ajv/dist/2020.js').default
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ??
  Ajv2020Module) as unknown as AjvClass
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule

type Json = Record<string, unknown>
type OpenApiDocument = { paths: Record<string, Record<string, Json>> } & Json

export type ContractCall = {
  method: string
  /** The documented path template, e.g. /v1/generations/{id}. */
  path: string
  status: number
  contentType: string | null
}

export type V1Client = {
  request: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>
}

export type OpenApiContract = {
  document: OpenApiDocument
  /** Every answer checked so far. */
  calls: ContractCall[]
  /** Checks one /v1 answer (its body is read from a clone); throws when it is not documented. */
  check: (method: string, url: string, response: Response) => Promise<void>
  /** Requests to the server with `Authorization: Bearer <key>` (none without a key), each answer checked. */
  client: (key?: string) => V1Client
  /** The documented operations ("GET /v1/usage") no call has reached with a 2xx answer. */
  untested: () => string[]
  /**
   * Checks one webhook delivery against the document's `webhooks` entry of its event type: its
   * headers as documented, its JSON body valid against the event's schema (closed, as answers are).
   */
  checkWebhook: (delivery: { headers: Record<string, string | string[] | undefined>; body: string }) => void
}

const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1')
const documentId = 'https://vitrin.test/openapi.json'

function templatePattern(template: string): RegExp {
  const escaped = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${escaped}$`)
}

function mediaTypeMatches(documented: string, actual: string): boolean {
  if (documented === '*/*') return true
  if (documented.endsWith('/*')) return actual.startsWith(documented.slice(0, -1))
  return documented === actual
}

/** Every object schema that lists its properties, closed to any other property. */
function withClosedObjects<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(withClosedObjects)
  else if (node && typeof node === 'object') {
    const schema = node as Json
    if (
      schema.properties &&
      typeof schema.properties === 'object' &&
      schema.additionalProperties === undefined
    ) {
      schema.additionalProperties = false
    }
    Object.values(schema).forEach(withClosedObjects)
  }
  return node
}

/** Loads the server's /v1/openapi.json (without a key, as anyone may) and checks answers against it. */
export async function openApiContract(server: TestServer): Promise<OpenApiContract> {
  const response = await fetch(`${server.url}/v1/openapi.json`)
  if (response.status !== 200) throw new Error(`/v1/openapi.json answered ${response.status}`)
  const document = (await response.json()) as OpenApiDocument
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
  addFormats(ajv)
  // Checked strictly: an answer may carry no field the document leaves out (the published
  // document itself stays open, so that clients accept fields added later within v1).
  ajv.addSchema(withClosedObjects(structuredClone(document)), documentId)
  const validators = new Map<string, ReturnType<typeof ajv.compile>>()
  // Literal paths before templated ones, so /v1/generations never matches a {id} template.
  const templates = Object.keys(document.paths)
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
    .map((template) => ({ template, pattern: templatePattern(template) }))
  const calls: ContractCall[] = []

  async function check(method: string, url: string, answer: Response): Promise<void> {
    const pathname = new URL(url, server.url).pathname
    const verb = method.toLowerCase()
    const where = `${method.toUpperCase()} ${pathname} → ${answer.status}`
    const template = templates.find(
      (candidate) => candidate.pattern.test(pathname) && document.paths[candidate.template]?.[verb],
    )?.template
    const contentType = answer.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? null
    calls.push({
      method: method.toUpperCase(),
      path: template ?? pathname,
      status: answer.status,
      contentType,
    })
    if (!template) throw new Error(`${where}: the operation is not in /v1/openapi.json`)
    const operation = document.paths[template]?.[verb] as { responses?: Record<string, Json> }
    const statusKey = String(answer.status)
    const documented = operation.responses?.[statusKey]
      ? statusKey
      : operation.responses?.default
        ? 'default'
        : null
    if (!documented) throw new Error(`${where}: status ${statusKey} is not documented for ${template}`)
    const content = (operation.responses?.[documented] as { content?: Record<string, Json> } | undefined)
      ?.content
    if (!content) {
      if (contentType && answer.status !== 204 && answer.status !== 304) {
        throw new Error(`${where}: documented without a body, answered ${contentType}`)
      }
      return
    }
    const mediaType = contentType
      ? Object.keys(content).find((type) => mediaTypeMatches(type, contentType))
      : null
    if (!mediaType) {
      throw new Error(
        `${where}: content type ${contentType} is not documented (${Object.keys(content).join(', ')})`,
      )
    }
    if (!/json/.test(mediaType)) return
    const pointer = ['paths', template, verb, 'responses', documented, 'content', mediaType, 'schema']
      .map(pointerSegment)
      .map(encodeURIComponent)
      .join('/')
    let validate = validators.get(pointer)
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}#/${pointer}` })
      validators.set(pointer, validate)
    }
    const body = (await answer.clone().json()) as unknown
    if (!validate(body)) {
      throw new Error(
        `${where}: the body does not match the documented schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
      )
    }
  }

  function checkWebhook(delivery: { headers: Record<string, string | string[] | undefined>; body: string }) {
    const type = String(delivery.headers['vitrin-event-type'])
    const webhooks = (document.webhooks ?? {}) as Record<string, Record<string, Json>>
    const operation = webhooks[type]?.post as
      | { parameters?: { name: string; in: string; required?: boolean }[] }
      | undefined
    if (!operation) throw new Error(`webhook ${type}: not in the document's webhooks`)
    for (const parameter of operation.parameters ?? []) {
      if (
        parameter.in === 'header' &&
        parameter.required &&
        !delivery.headers[parameter.name.toLowerCase()]
      ) {
        throw new Error(`webhook ${type}: the documented header ${parameter.name} is missing`)
      }
    }
    const pointer = ['webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema']
      .map(pointerSegment)
      .map(encodeURIComponent)
      .join('/')
    let validate = validators.get(pointer)
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}#/${pointer}` })
      validators.set(pointer, validate)
    }
    const body = JSON.parse(delivery.body) as unknown
    if (!validate(body)) {
      throw new Error(
        `webhook ${type}: the body does not match the documented schema: ${ajv.errorsText(validate.errors)}\n${delivery.body.slice(0, 2000)}`,
      )
    }
  }

  return {
    document,
    calls,
    check,
    checkWebhook,
    client: (key) => ({
      async request(path, init = {}) {
        const headers = {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(init.headers as Record<string, string> | undefined),
        }
        const answer = await server.api(path, { ...init, headers })
        const method = init.method ?? (init.json === undefined ? 'GET' : 'POST')
        await check(method, path, answer)
        return answer
      },
    }),
    untested: () =>
      Object.entries(document.paths).flatMap(([template, item]) =>
        Object.keys(item)
          .filter((verb) => ['get', 'post', 'put', 'patch', 'delete'].includes(verb))
          .map((verb) => `${verb.toUpperCase()} ${template}`)
          .filter(
            (operation) =>
              !calls.some(
                (call) =>
                  `${call.method} ${call.path}` === operation && call.status >= 200 && call.status < 300,
              ),
          ),
      ),
  }
}
