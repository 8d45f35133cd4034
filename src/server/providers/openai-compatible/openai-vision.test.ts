import { Writable } from 'node:stream'
import { pino } from 'pino'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type OpenAiFake, startOpenAiFake, strictSchemaProblems } from '#tests/fakes/openai-server.ts'
import { buildAttributePrompt } from '../prompts.ts'
import { type ChoosableAttribute, type ProviderCallContext, ProviderError } from '../types.ts'
import {
  attributesToAsk,
  createOpenAiVisionProvider,
  type OpenAiVisionOptions,
  visionPhotoSide,
  visionSchemaLimits,
} from './openai-vision.ts'

// The attribute chooser against the fake OpenAI-compatible server over real HTTP: what it sends
// (the downscaled photo, the allowed values, a strict schema of their ids), what it keeps of an
// answer, and how each failure is named and logged without the key.

const apiKey = 'sk-test-vision-key-0123456789'
const model = 'gpt-4o-mini'
let fake: OpenAiFake
let logLines: string[] = []
let photo: Buffer

const pieces: ChoosableAttribute = {
  id: '347',
  name: 'Parça Sayısı',
  isRequired: true,
  isMultiple: false,
  values: [
    { id: '6001', name: '2' },
    { id: '6002', name: '6' },
    { id: '6003', name: '12' },
  ],
}
const features: ChoosableAttribute = {
  id: '912',
  name: 'Özellik',
  isRequired: true,
  isMultiple: true,
  values: [
    { id: '7101', name: 'Kulplu' },
    { id: '7102', name: 'Tabaklı' },
    { id: '7103', name: 'Desenli' },
  ],
}
const style: ChoosableAttribute = {
  id: '88',
  name: 'Stil',
  isRequired: false,
  isMultiple: false,
  values: [
    { id: '501', name: 'Modern' },
    { id: '502', name: 'Klasik' },
  ],
}
const attributes = [pieces, features, style]

function provider(overrides: Partial<OpenAiVisionOptions> = {}) {
  return createOpenAiVisionProvider({ apiKey, baseUrl: fake.url, model, maxRetries: 1, ...overrides })
}

function context(signal = new AbortController().signal): ProviderCallContext {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'))
      callback()
    },
  })
  return { signal, log: pino({ level: 'debug' }, sink) }
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ProviderError)
  return error as ProviderError
}

type SentBody = {
  model: string
  temperature: number
  messages: { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] }[]
  response_format?: { type: string; json_schema: { name: string; strict: boolean; schema: never } }
}
const sent = (index = 0) => fake.requests[index]?.body as SentBody

const logged = (message: string) =>
  logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === message)

beforeAll(async () => {
  fake = await startOpenAiFake()
  // A large PNG with transparency: what a seller may upload, not what the model should get.
  photo = await sharp({
    create: { width: 2000, height: 1500, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } },
  })
    .png()
    .toBuffer()
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.reset()
  fake.clearRequests()
  logLines = []
})
afterEach(() => {
  // The key must never reach a log line, whatever the test did.
  expect(logLines.join('\n')).not.toContain(apiKey)
})

describe('OpenAI-compatible attribute chooser: what is sent', () => {
  it('sends the prompt with every allowed value, the photo at 768 px as JPEG, and a strict schema of ids', async () => {
    const chosen = await provider().chooseAttributes(
      { photo, attributes, product: { name: 'Kahve Fincan Takımı', category: 'Mutfak > Fincan Takımı' } },
      context(),
    )
    expect(fake.requests).toHaveLength(1)
    const body = sent()
    expect(body.model).toBe(model)
    expect(body.temperature).toBe(0)
    const [text, image] = body.messages[0]?.content ?? []
    expect(text?.text).toBe(
      buildAttributePrompt(
        attributes.map((attribute) => ({ ...attribute, key: attribute.id })),
        { name: 'Kahve Fincan Takımı', category: 'Mutfak > Fincan Takımı' },
      ),
    )
    expect(text?.text).toContain('- "347": Parça Sayısı (tek değer): "6001" = 2; "6002" = 6; "6003" = 12')
    expect(text?.text).toContain('Satıcının verdiği ürün adı: Kahve Fincan Takımı')

    const url = image?.image_url?.url ?? ''
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true)
    const meta = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata()
    expect(meta).toMatchObject({ format: 'jpeg', width: visionPhotoSide, height: 576, hasAlpha: false })

    expect(body.response_format?.type).toBe('json_schema')
    expect(body.response_format?.json_schema).toMatchObject({ name: 'product_attributes', strict: true })
    const schema = body.response_format?.json_schema.schema
    expect(schema).toEqual({
      type: 'object',
      properties: {
        '347': {
          anyOf: [{ type: 'string', enum: ['6001', '6002', '6003'] }, { type: 'null' }],
          description: 'Parça Sayısı',
        },
        '912': {
          type: 'array',
          items: { type: 'string', enum: ['7101', '7102', '7103'] },
          description: 'Özellik',
        },
        '88': { anyOf: [{ type: 'string', enum: ['501', '502'] }, { type: 'null' }], description: 'Stil' },
      },
      required: ['347', '912', '88'],
      additionalProperties: false,
    })
    expect(strictSchemaProblems(schema ?? {})).toEqual([])
    // The fake answers as a model held to the schema: the first allowed value of each.
    expect(chosen).toEqual([
      { attributeId: '347', valueIds: ['6001'] },
      { attributeId: '912', valueIds: ['7101'] },
      { attributeId: '88', valueIds: ['501'] },
    ])
    expect(logged('attributes chosen from the photo')).toEqual([
      expect.objectContaining({ attributes: 3, chosen: 3, dropped: 0 }),
    ])
  })

  it('keeps a scripted answer: one value, several values, and null where the photo does not tell', async () => {
    fake.script({ content: JSON.stringify({ '347': '6002', '912': ['7102', '7103'], '88': null }) })
    const chosen = await provider().chooseAttributes({ photo, attributes }, context())
    expect(chosen).toEqual([
      { attributeId: '347', valueIds: ['6002'] },
      { attributeId: '912', valueIds: ['7102', '7103'] },
    ])
  })

  it('asks nothing, and sends nothing, when no attribute has allowed values', async () => {
    const freeText = { ...pieces, id: '5', name: 'Model Kodu', values: [] }
    expect(await provider().chooseAttributes({ photo, attributes: [freeText] }, context())).toEqual([])
    expect(fake.requests).toHaveLength(0)
  })

  it('keeps the schema within the structured-output limits, required attributes first', () => {
    const many = (id: string, count: number, isRequired: boolean): ChoosableAttribute => ({
      id,
      name: id,
      isRequired,
      isMultiple: false,
      values: Array.from({ length: count }, (_, index) => ({ id: `${id}-${index}`, name: `${index}` })),
    })
    const asked = attributesToAsk([
      many('optional-small', 10, false),
      many('required-big', 700, true),
      many('required-too-big', 400, true),
      many('required-small', 250, true),
      many('optional-big', 100, false),
    ])
    expect(asked.map((attribute) => attribute.id)).toEqual([
      'optional-small',
      'required-big',
      'required-small',
    ])
    const total = asked.reduce((sum, attribute) => sum + attribute.values.length, 0)
    expect(total).toBeLessThanOrEqual(visionSchemaLimits.enumValues)
  })
})

describe('OpenAI-compatible attribute chooser: answers it cannot use', () => {
  it('drops ids outside the allowed values, keeping the allowed ones of a list', async () => {
    fake.script('outside-enum')
    const chosen = await provider().chooseAttributes({ photo, attributes }, context())
    expect(chosen).toEqual([{ attributeId: '912', valueIds: ['7101'] }])
    expect(logged('attributes chosen from the photo')).toEqual([
      expect.objectContaining({ chosen: 1, dropped: 3 }),
    ])
  })

  it('takes only one value for a single-value attribute', async () => {
    fake.script({ content: JSON.stringify({ '347': ['6001', '6002'], '912': [], '88': null }) })
    const chosen = await provider().chooseAttributes({ photo, attributes }, context())
    expect(chosen).toEqual([{ attributeId: '347', valueIds: ['6001'] }])
  })

  it('malformed JSON is bad_output, with the reply in the log', async () => {
    fake.script('malformed')
    const error = await failureOf(provider().chooseAttributes({ photo, attributes }, context()))
    expect(error.failure).toBe('bad_output')
    expect(logged('attribute vision reply unusable')).toEqual([
      expect.objectContaining({ model, content: expect.stringContaining('Üzgünüm') }),
    ])
  })

  it('a refusal is rejected', async () => {
    fake.script('refusal')
    const error = await failureOf(provider().chooseAttributes({ photo, attributes }, context()))
    expect(error.failure).toBe('rejected')
    expect(logged('the model refused to choose attributes')).toHaveLength(1)
  })

  it('a server without json_schema support is asked again without it, and its JSON is read', async () => {
    fake.script(['schema-unsupported', { content: `Tabii: {"347": "6003", "912": ["7103"], "88": "502"}` }])
    const chosen = await provider().chooseAttributes({ photo, attributes }, context())
    expect(chosen).toEqual([
      { attributeId: '347', valueIds: ['6003'] },
      { attributeId: '912', valueIds: ['7103'] },
      { attributeId: '88', valueIds: ['502'] },
    ])
    expect(sent(0).response_format).toBeDefined()
    expect(sent(1).response_format).toBeUndefined()
  })
})

describe('OpenAI-compatible attribute chooser: failures', () => {
  it('500 after its one retry is unavailable, logged with its status and context', async () => {
    fake.script(500)
    const error = await failureOf(provider().chooseAttributes({ photo, attributes }, context()))
    expect(error.failure).toBe('unavailable')
    expect(fake.requests).toHaveLength(2)
    expect(logged('attribute vision request failed')).toEqual([
      expect.objectContaining({
        provider: 'openai',
        model,
        status: 500,
        failure: 'unavailable',
        attributes: 3,
      }),
    ])
  })

  it('429 after its one retry is rate_limited', async () => {
    fake.script([429, 429])
    const error = await failureOf(provider().chooseAttributes({ photo, attributes }, context()))
    expect(error.failure).toBe('rate_limited')
    expect(fake.requests).toHaveLength(2)
  })

  it('a server that does not answer in time is timeout', async () => {
    fake.script('hang')
    const error = await failureOf(
      provider({ timeoutMs: 150, maxRetries: 0 }).chooseAttributes({ photo, attributes }, context()),
    )
    expect(error.failure).toBe('timeout')
  })

  it('401 is unauthorized and the key is in no message, cause or log', async () => {
    fake.script(401)
    const error = await failureOf(provider().chooseAttributes({ photo, attributes }, context()))
    expect(error.failure).toBe('unauthorized')
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(apiKey)
    expect(String((error.cause as Error | undefined)?.message)).not.toContain(apiKey)
  })

  it('without a key fails as unauthorized, before any traffic', async () => {
    const error = await failureOf(
      provider({ apiKey: undefined }).chooseAttributes({ photo, attributes }, context()),
    )
    expect(error.failure).toBe('unauthorized')
    expect(fake.requests).toHaveLength(0)
  })
})
