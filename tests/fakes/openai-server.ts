// A fake OpenAI-compatible chat API (POST /v1/chat/completions), for adapter tests and for
// running the app by hand: `npx tsx tests/fakes/openai-server.ts --port 4600` (see README.md).
// Replies are scripted per test; with nothing scripted it answers valid Turkish SEO copy, or,
// for a request with another strict json_schema (the attribute chooser's), JSON that follows
// that schema: the first allowed value of each enum.

import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { clampAtWord, type ProductDetails } from '#shared/seo.ts'
import { colourWordsIn, descriptionLead, factViolations, nameCore } from '#shared/seo-facts.ts'
import { answerControl, argValue, closeServer, exitOnStop } from './control.ts'

/** Named replies for the cases the adapter must handle; a number answers that HTTP status. */
export type OpenAiFakeReply =
  | 'valid'
  | 'prose' // the JSON wrapped in prose and a code fence
  | 'malformed' // no usable JSON at all
  | 'too-long' // title and description over the limits
  | 'eight-keywords' // only 8 keywords (cannot be fixed by trimming)
  | 'schema-unsupported' // 400: response_format json_schema not supported
  | 'refusal'
  | 'drops-facts' // valid copy that ignores the seller's details (a fact dropped or contradicted)
  | 'hang' // never answers (until the fake closes): for client timeouts
  | 'outside-enum' // a schema answer naming values outside each enum (a server that ignores the schema)
  | number // e.g. 429 (with retry-after-ms), 500, 503, 401
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { content: string }

export type OpenAiFakeRequest = {
  method: string
  path: string
  headers: Record<string, string>
  body: unknown
  /** The keyed script (see `scriptFor`) this request followed, if any. */
  match?: string
}

/** Replies in order (then 'valid' again), or one reply (not in a list) for every request. */
export type OpenAiFakeReplies = OpenAiFakeReply[] | OpenAiFakeReply

export type OpenAiFake = {
  /** Base URL to use as OPENAI_BASE_URL, e.g. http://127.0.0.1:4600/v1 */
  url: string
  requests: OpenAiFakeRequest[]
  /** Replies for the next requests, in order; afterwards every request gets 'valid'. */
  script(replies: OpenAiFakeReplies): void
  /**
   * Replies only for requests whose text (the prompt, which carries the seller's product
   * details) contains `match`; other requests keep the shared script. Lets tests running in
   * parallel against one fake script their own requests.
   */
  scriptFor(match: string, replies: OpenAiFakeReplies): void
  /** Drops the keyed replies for `match`, or every keyed script and the shared one. */
  reset(match?: string): void
  clearRequests(): void
  close(): Promise<void>
}

export const validSeoCopy = {
  title: 'Seramik Kahve Kupası 350 ml - El Yapımı, Mat Beyaz',
  description:
    'El yapımı mat beyaz seramik kahve kupası. 350 ml hacim, bulaşık makinesinde yıkanabilir, günlük kullanım ve hediye için ideal.',
  features: [
    'El yapımı seramik gövde',
    '350 ml kullanışlı hacim',
    'Bulaşık makinesinde yıkanabilir',
    'Mat beyaz, sade tasarım',
  ],
  keywords: [
    'seramik kupa',
    'kahve kupası',
    'el yapımı kupa',
    'beyaz kupa',
    'mat kupa',
    'hediye kupa',
    '350 ml kupa',
    'çay kupası',
    'mutfak',
    'ev dekorasyonu',
  ],
}

/** The copy for a reply; by hand it picks up the product name the app sent, if any. */
function seoCopyFor(requestText: string) {
  const name = /Ürün adı: (.+)/.exec(requestText)?.[1]?.trim()
  if (!name) return validSeoCopy
  const title = `${name} - Yüksek Kalite, Hızlı Kargo`.slice(0, 60)
  return { ...validSeoCopy, title }
}

const factLabels = {
  'Ürün adı': 'name',
  Kategori: 'category',
  Marka: 'brand',
  Malzeme: 'material',
  Renk: 'color',
  'Satıcının açıklaması': 'description',
  'Öne çıkan özellikler': 'features',
} as const satisfies Record<string, keyof ProductDetails>

/** The seller's details as the prompt lists them ("- Renk: Kırmızı"), read back. */
export function factsInPrompt(requestText: string): ProductDetails {
  const details: ProductDetails = {}
  for (const [label, field] of Object.entries(factLabels)) {
    const value = new RegExp(`^- ${label}: (.+)$`, 'm').exec(requestText)?.[1]?.trim()
    if (!value) continue
    if (field === 'features') details.features = value.split('; ')
    else details[field] = value
  }
  return details
}

type Copy = typeof validSeoCopy

/**
 * What a model that follows the prompt answers: `copy` when it keeps every fact the prompt
 * gives, else copy built around those facts (the name in the title; brand, material, colour
 * and the seller's features among the features; the description's lead in the description;
 * no other colour named when a colour was given).
 */
export function copyKeepingFacts(copy: Copy, details: ProductDetails): Copy {
  if (factViolations(copy, details).length === 0) return copy
  const sellersWords = Object.values(details).flat().join(' ')
  const allowed = new Set(colourWordsIn(sellersWords))
  const fits = (text: string) => !details.color || colourWordsIn(text).every((word) => allowed.has(word))
  const name = details.name ? nameCore(details.name) : undefined
  const title = clampAtWord(
    name ?? [details.brand, details.color, details.material].filter(Boolean).join(' '),
    60,
  )
  const inTitle = (value: string) =>
    title.toLocaleLowerCase('tr-TR').includes(value.toLocaleLowerCase('tr-TR'))
  const factLines = (
    [
      ['Marka', details.brand],
      ['Malzeme', details.material],
      ['Renk', details.color],
    ] as const
  ).flatMap(([label, value]) => (value && !inTitle(value) ? [`${label}: ${value}`] : []))
  const fillers = ['Özenli işçilik', 'Günlük kullanıma uygun', 'Kolay temizlenir', 'Hediyelik']
  const features = [
    ...(details.features ?? []),
    ...factLines,
    ...copy.features.filter(fits),
    ...fillers,
  ].slice(0, 6)
  const description = details.description
    ? descriptionLead(details.description)
    : fits(copy.description)
      ? copy.description
      : 'Günlük kullanım için özenle hazırlanmış bir ürün.'
  const keywords = [
    ...copy.keywords.filter(fits),
    'ev ürünleri',
    'günlük kullanım',
    'hediyelik ürün',
    'şık tasarım',
  ].slice(0, 10)
  return { title: title || copy.title, description, features, keywords }
}

type JsonSchema = {
  type?: string | string[]
  enum?: unknown[]
  anyOf?: JsonSchema[]
  items?: JsonSchema
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: unknown
}

/** The json_schema of a request's response_format, if it asks for one. */
function requestedSchema(body: unknown): { name: string; strict: boolean; schema: JsonSchema } | null {
  const format = (body as { response_format?: { type?: string; json_schema?: Record<string, unknown> } })
    ?.response_format
  if (format?.type !== 'json_schema' || !format.json_schema) return null
  const { name, strict, schema } = format.json_schema
  return { name: String(name), strict: strict === true, schema: (schema ?? {}) as JsonSchema }
}

/** Most enum values one strict schema may hold, as OpenAI's structured outputs document. */
const maxEnumValues = 1000

/**
 * What a strict schema breaks of OpenAI's structured-output rules (the subset the fake checks):
 * an object root, every object closed (`additionalProperties: false`) with every property
 * required, and at most 1,000 enum values in all. Empty when it is acceptable.
 */
export function strictSchemaProblems(schema: JsonSchema): string[] {
  const problems: string[] = []
  let enumValues = 0
  const visit = (node: JsonSchema, path: string) => {
    if (node.enum) enumValues += node.enum.length
    if (node.type === 'object' || node.properties) {
      const keys = Object.keys(node.properties ?? {})
      if (node.additionalProperties !== false) {
        problems.push(
          `In context=${path}, 'additionalProperties' is required to be supplied and to be false.`,
        )
      }
      const missing = keys.filter((key) => !(node.required ?? []).includes(key))
      if (missing.length > 0) {
        problems.push(
          `In context=${path}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`,
        )
      }
      for (const key of keys) visit(node.properties?.[key] ?? {}, `${path}, 'properties', '${key}'`)
    }
    if (node.items) visit(node.items, `${path}, 'items'`)
    for (const [index, branch] of (node.anyOf ?? []).entries()) visit(branch, `${path}, 'anyOf', '${index}'`)
  }
  if (schema.type !== 'object') problems.push("Invalid schema: the root must be of type 'object'.")
  visit(schema, '()')
  if (enumValues > maxEnumValues) {
    problems.push(
      `Expected at most ${maxEnumValues} enum values in total within a schema, but got ${enumValues}.`,
    )
  }
  return problems
}

/**
 * A value following `schema`, as a model constrained to it answers: the first allowed value of
 * each enum (the first branch of a choice that has one, one item in a list). `outside` answers
 * a value no enum allows instead, and one allowed item after it in a list.
 */
export function answerFollowing(schema: JsonSchema, outside = false): unknown {
  if (schema.anyOf) {
    const branch = schema.anyOf.find((option) => option.enum || option.type === 'array') ?? schema.anyOf[0]
    return branch ? answerFollowing(branch, outside) : null
  }
  if (schema.enum) return outside ? 'not-an-allowed-value' : (schema.enum[0] ?? null)
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, answerFollowing(value, outside)]),
      )
    case 'array': {
      const item = schema.items ? answerFollowing(schema.items) : null
      if (item === null) return []
      return outside && schema.items?.enum ? ['not-an-allowed-value', item] : [item]
    }
    case 'string':
      return ''
    case 'number':
    case 'integer':
      return 0
    case 'boolean':
      return false
    default:
      return null
  }
}

/** Why an image part cannot be read, as the API says it, or null when it is a data URL or a link. */
function imagePartProblem(body: unknown): string | null {
  const messages = (body as { messages?: Array<{ content?: unknown }> } | null)?.messages
  if (!Array.isArray(messages)) return null
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue
    for (const part of message.content as Array<{ type?: string; image_url?: { url?: unknown } }>) {
      if (part.type !== 'image_url') continue
      const url = part.image_url?.url
      const isData =
        typeof url === 'string' && /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/.test(url)
      const isLink = typeof url === 'string' && /^https?:\/\//.test(url)
      if (!isData && !isLink) {
        return "Invalid 'image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,...'), or a URL."
      }
    }
  }
  return null
}

function completion(model: string, content: string | null, refusal: string | null = null) {
  return {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 2900, completion_tokens: 210, total_tokens: 3110 },
  }
}

function apiError(message: string, type: string, code: string | null = null, param: string | null = null) {
  return { error: { message, type, param, code } }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_${randomUUID().slice(0, 12)}`,
    ...headers,
  })
  res.end(text)
}

function textOf(body: unknown): string {
  const messages = (body as { messages?: Array<{ content?: unknown }> } | null)?.messages
  if (!Array.isArray(messages)) return ''
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }]))
    .map((part: { type?: string; text?: unknown }) =>
      part.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('\n')
}

function copyOf(replies: OpenAiFakeReplies): OpenAiFakeReplies {
  return Array.isArray(replies) ? [...replies] : replies
}

function nextReply(replies: OpenAiFakeReplies | undefined): OpenAiFakeReply | undefined {
  return Array.isArray(replies) ? replies.shift() : replies
}

export async function startOpenAiFake(
  options: {
    port?: number
    host?: string
    /** By hand: put the product name the app sent into the title, so the copy looks related. */
    echoProductName?: boolean
    /** Add the JSON endpoints under /__control/ (see README.md) that script it over HTTP. */
    control?: boolean
  } = {},
): Promise<OpenAiFake> {
  const host = options.host ?? '127.0.0.1'
  const requests: OpenAiFakeRequest[] = []
  let replies: OpenAiFakeReplies = []
  const keyed = new Map<string, OpenAiFakeReplies>()

  function reset(match?: string): void {
    if (match) {
      keyed.delete(match)
      return
    }
    keyed.clear()
    replies = []
  }

  /** Test control over HTTP (only with `control`): outside the API's paths, never logged. */
  function handleControl(method: string, url: URL, raw: string, res: ServerResponse) {
    const answer = answerControl(method, url, raw, {
      script(body, match) {
        if (body.replies === undefined || body.replies === null) {
          return 'replies must be a reply or a list of replies'
        }
        const next = copyOf(body.replies as OpenAiFakeReplies)
        if (match) keyed.set(match, next)
        else replies = next
        return null
      },
      reset,
      requests,
    })
    send(res, answer.status, answer.body)
  }

  function answer(
    res: ServerResponse,
    reply: OpenAiFakeReply,
    model: string,
    requestText: string,
    key: string,
    schema: JsonSchema | null,
  ) {
    const plain = options.echoProductName ? seoCopyFor(requestText) : validSeoCopy
    // A model that follows the prompt keeps the seller's facts; 'drops-facts' is one that does not.
    const copy = copyKeepingFacts(plain, factsInPrompt(requestText))
    // A request with a schema of its own (not the SEO copy's) gets an answer following it.
    const valid = schema ? JSON.stringify(answerFollowing(schema)) : JSON.stringify(copy)
    if (typeof reply === 'number') {
      // Short waits keep the SDK's retries fast in tests; it honours retry-after-ms.
      const retryHeaders = { 'retry-after-ms': '5' }
      if (reply === 401) {
        // Like the real API, the message quotes the key (the real one masks most of it).
        return send(
          res,
          401,
          apiError(`Incorrect API key provided: ${key}.`, 'invalid_request_error', 'invalid_api_key'),
        )
      }
      if (reply === 429) {
        return send(
          res,
          429,
          apiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
          retryHeaders,
        )
      }
      return send(res, reply, apiError(`Fake server error ${reply}`, 'server_error'), retryHeaders)
    }
    if (typeof reply === 'object') {
      if ('status' in reply) return send(res, reply.status, reply.body, reply.headers ?? {})
      return send(res, 200, completion(model, reply.content))
    }
    switch (reply) {
      case 'valid':
        return send(res, 200, completion(model, valid))
      case 'outside-enum':
        return send(res, 200, completion(model, JSON.stringify(answerFollowing(schema ?? {}, true))))
      case 'prose':
        return send(
          res,
          200,
          completion(
            model,
            `Elbette! İşte ürününüz için SEO içeriği:\n\n\`\`\`json\n${JSON.stringify(JSON.parse(valid), null, 2)}\n\`\`\`\n\nBaşka bir şey ister misiniz?`,
          ),
        )
      case 'malformed':
        return send(
          res,
          200,
          completion(model, 'Üzgünüm, {bu ürün için} içerik üretemiyorum: "title": eksik'),
        )
      case 'too-long':
        return send(
          res,
          200,
          completion(
            model,
            JSON.stringify({
              ...copy,
              title: `${copy.title} ve daha birçok harika özellik ile birlikte gelen ürün`,
              description: `${copy.description} ${copy.description}`,
              features: [...copy.features, 'Ek özellik bir', 'Ek özellik iki', 'Ek özellik üç'],
            }),
          ),
        )
      case 'eight-keywords':
        return send(
          res,
          200,
          completion(model, JSON.stringify({ ...copy, keywords: copy.keywords.slice(0, 8) })),
        )
      case 'schema-unsupported':
        return send(
          res,
          400,
          apiError(
            "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
            'invalid_request_error',
            null,
            'response_format',
          ),
        )
      case 'drops-facts':
        return send(res, 200, completion(model, JSON.stringify(plain)))
      case 'refusal':
        return send(res, 200, completion(model, null, 'I cannot help with that.'))
      case 'hang':
        return
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    if (options.control && req.url?.startsWith('/__control/')) {
      return handleControl(req.method ?? 'GET', new URL(req.url, 'http://fake'), raw, res)
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    let body: unknown = null
    try {
      body = raw ? JSON.parse(raw) : null
    } catch {
      return send(
        res,
        400,
        apiError('We could not parse the JSON body of your request.', 'invalid_request_error'),
      )
    }
    const path = req.url ?? '/'
    const logged: OpenAiFakeRequest = { method: req.method ?? 'GET', path, headers, body }
    requests.push(logged)
    if (req.method !== 'POST' || !path.startsWith('/v1/chat/completions')) {
      return send(res, 404, apiError(`Unknown request URL: ${req.method} ${path}`, 'invalid_request_error'))
    }
    const key = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1]
    if (!key) {
      return send(res, 401, apiError('You did not provide an API key.', 'invalid_request_error'))
    }
    const model =
      typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'unknown'
    const text = textOf(body)
    const match = [...keyed.keys()].find((candidate) => text.includes(candidate))
    if (match) logged.match = match
    const reply = match ? nextReply(keyed.get(match)) : nextReply(replies)
    const imageProblem = imagePartProblem(body)
    if (imageProblem) {
      return send(res, 400, apiError(imageProblem, 'invalid_request_error', 'invalid_image_url', 'messages'))
    }
    const format = requestedSchema(body)
    // A scripted 'schema-unsupported' is the server's answer before it looks at the schema.
    if (format?.strict && reply !== 'schema-unsupported') {
      const [problem] = strictSchemaProblems(format.schema)
      if (problem) {
        return send(
          res,
          400,
          apiError(
            `Invalid schema for response_format '${format.name}': ${problem}`,
            'invalid_request_error',
            'invalid_json_schema',
            'response_format',
          ),
        )
      }
    }
    const schema = format && format.name !== 'seo_content' ? format.schema : null
    answer(res, reply ?? 'valid', model, text, key, schema)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, apiError(`Fake crashed: ${String(error)}`, 'server_error'))
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}/v1`,
    requests,
    script(next) {
      replies = copyOf(next)
    },
    scriptFor(match, next) {
      keyed.set(match, copyOf(next))
    },
    reset,
    clearRequests() {
      requests.length = 0
    },
    close: () => closeServer(server),
  }
}

// By hand: `npx tsx tests/fakes/openai-server.ts [--port 4600] [--host 127.0.0.1]`
// (the end-to-end tests start it this way too, and script it through /__control/).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const fake = await startOpenAiFake({
    port: Number(argValue(args, '--port') ?? 4600),
    host: argValue(args, '--host') ?? '127.0.0.1',
    echoProductName: true,
    control: true,
  })
  console.log(`OpenAI fake listening on ${fake.url}`)
  console.log(
    `run the app with: SEO_PROVIDER=openai VISION_MODEL=gpt-4o-mini OPENAI_API_KEY=fake OPENAI_BASE_URL=${fake.url}`,
  )
  exitOnStop(fake.close)
}
