import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import type { MarketplaceAttribute } from '#shared/contracts/publishing.ts'
import { type OpenAiFake, startOpenAiFake } from '#tests/fakes/openai-server.ts'
import { type TrendyolCategoryAttribute, trendyolCategoryAttributes } from '#tests/fakes/trendyol-catalog.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { type AttributeFill, fillAttributes } from './attribute-filler.ts'
import { visionFromConfig } from './attribute-vision.ts'

// The vision model as the attribute filler meets it, over real HTTP to the fake: the attributes
// nothing else filled are chosen from the photo (source `vision`) when VISION_MODEL is set, and
// every kind of failure leaves them for the seller, logged, without failing the fill.

const apiKey = 'sk-test-vision-key-abcdef'
let fake: OpenAiFake
let photo: Buffer
let logLines: Record<string, unknown>[] = []

const log = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>)
      callback()
    },
  }),
)

// Fincan Takımı as the Trendyol fake serves it.
const cups: MarketplaceAttribute[] = (trendyolCategoryAttributes.get(1111) ?? []).map(
  (entry: TrendyolCategoryAttribute) => ({
    id: String(entry.attribute.id),
    name: entry.attribute.name,
    isRequired: entry.required,
    isMultiple: entry.allowMultipleAttributeValues,
    allowsCustom: entry.allowCustom,
    values: entry.attributeValues.map((value) => ({ id: String(value.id), name: value.name })),
  }),
)
const pieces = cups.find((attribute) => attribute.name === 'Parça Sayısı') as MarketplaceAttribute

function vision(env: Record<string, string> = {}, tuning = {}) {
  const config = loadConfig({ OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: fake.url, ...env })
  return visionFromConfig(config.providers, log, { maxRetries: 0, ...tuning })
}

async function fill(env: Record<string, string> = { VISION_MODEL: 'gpt-4o-mini' }, tuning = {}) {
  const bound = vision(env, tuning)
  return fillAttributes({
    attributes: cups,
    details: { name: 'Kahve Fincan Takımı', material: 'Porselen', color: 'Beyaz' },
    ...(bound ? { vision: bound(photo, { product: { name: 'Kahve Fincan Takımı' } }) } : {}),
  })
}

const piecesFilled = (result: AttributeFill) =>
  result.filled.filter((value) => value.attributeId === pieces.id)
const leftForSeller = () =>
  logLines.filter((line) => line.msg === 'attributes not chosen from the photo: left for the seller')

beforeAll(async () => {
  fake = await startOpenAiFake()
  photo = await productPhoto({ width: 900, height: 900 })
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.reset()
  fake.clearRequests()
  logLines = []
})

describe('the drafts’ vision model', () => {
  it('is none without VISION_MODEL: nothing is sent and the required attributes stay to ask', async () => {
    expect(vision()).toBeNull()
    const result = await fill({})
    expect(piecesFilled(result)).toEqual([])
    expect(result.missing.map((attribute) => attribute.name)).toContain('Parça Sayısı')
    expect(fake.requests).toHaveLength(0)
  })

  it('fills what nothing else filled from the photo, source vision, and leaves the seller’s facts alone', async () => {
    const result = await fill()
    expect(fake.requests).toHaveLength(1)
    // The fake answers as a model held to the schema does: each enum's first allowed value.
    expect(piecesFilled(result)).toEqual([
      {
        attributeId: pieces.id,
        valueId: pieces.values[0]?.id,
        value: pieces.values[0]?.name,
        source: 'vision',
      },
    ])
    expect(result.missing.map((attribute) => attribute.name)).not.toContain('Parça Sayısı')
    const colour = cups.find((attribute) => attribute.name === 'Renk')
    expect(result.filled.find((value) => value.attributeId === colour?.id)).toMatchObject({
      value: 'Beyaz',
      source: 'details',
    })
    // Only the open attributes were asked about: the colour and material were the seller's.
    const body = fake.requests[0]?.body as
      | { response_format?: { json_schema?: { schema?: { required?: string[] } } } }
      | undefined
    const schema = { required: body?.response_format?.json_schema?.schema?.required ?? [] }
    expect(schema.required).toContain(pieces.id)
    expect(schema.required).not.toContain(colour?.id)
  })

  it('drops an answer outside the allowed values: the attribute is asked', async () => {
    fake.script('outside-enum')
    const result = await fill()
    expect(piecesFilled(result)).toEqual([])
    expect(result.missing.map((attribute) => attribute.name)).toContain('Parça Sayısı')
  })

  for (const [what, reply, failure, tuning] of [
    ['a 500', 500, 'unavailable', {}],
    ['malformed JSON', 'malformed', 'bad_output', {}],
    ['a refusal', 'refusal', 'rejected', {}],
    ['a 429', 429, 'rate_limited', {}],
    ['no answer in time', 'hang', 'timeout', { timeoutMs: 150 }],
  ] as const) {
    it(`leaves the attributes for the seller on ${what}, logged with its context`, async () => {
      fake.script(reply)
      const result = await fill(undefined, tuning)
      expect(piecesFilled(result)).toEqual([])
      expect(result.missing.map((attribute) => attribute.name)).toContain('Parça Sayısı')
      const [warning] = leftForSeller()
      expect(warning).toMatchObject({
        level: 40,
        provider: 'openai',
        failure,
        attributes: expect.arrayContaining([pieces.id]),
      })
      expect(JSON.stringify(logLines)).not.toContain(apiKey)
    })
  }
})
