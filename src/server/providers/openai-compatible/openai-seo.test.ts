import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { seoContentSchema, seoLimits } from '#shared/seo.ts'
import { factViolations } from '#shared/seo-facts.ts'
import { type OpenAiFake, startOpenAiFake, validSeoCopy } from '#tests/fakes/openai-server.ts'
import { buildSeoPrompt } from '../prompts.ts'
import { type ProviderCallContext, ProviderError, type SeoRequest } from '../types.ts'
import { createOpenAiSeoProvider, type OpenAiSeoOptions, seoJsonSchema } from './openai-seo.ts'

const apiKey = 'sk-test-secret-key-0123456789'
const model = 'gpt-4o-mini'
let fake: OpenAiFake
let logLines: string[] = []

const request: SeoRequest = {
  image: { bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]), mime: 'image/jpeg' },
  // Facts the fake's plain copy keeps (name in the title, material among the features).
  details: { name: 'Seramik Kahve Kupası', material: 'seramik' },
}

function provider(overrides: Partial<OpenAiSeoOptions> = {}) {
  return createOpenAiSeoProvider({ apiKey, baseUrl: fake.url, model, ...overrides })
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

function bodies() {
  return fake.requests.map((r) => r.body as Record<string, unknown>)
}

beforeAll(async () => {
  fake = await startOpenAiFake()
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.script([])
  fake.clearRequests()
  logLines = []
})
afterEach(() => {
  // The key must never reach a log line, whatever the test did.
  expect(logLines.join('\n')).not.toContain(apiKey)
})

describe('OpenAI-compatible SEO: what is sent', () => {
  it('sends one user message with the Turkish instruction and the photo, strict json_schema', async () => {
    const result = await provider().writeSeo(request, context())
    expect(result).toEqual({ ...validSeoCopy, model })
    expect(fake.requests).toHaveLength(1)
    const [sent] = fake.requests
    expect(sent?.path).toBe('/v1/chat/completions')
    expect(sent?.headers.authorization).toBe(`Bearer ${apiKey}`)
    expect(sent?.body).toEqual({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: buildSeoPrompt(request.details) },
            {
              type: 'image_url',
              image_url: {
                url: `data:image/jpeg;base64,${request.image.bytes.toString('base64')}`,
                detail: 'low',
              },
            },
          ],
        },
      ],
      max_tokens: 1000,
      temperature: 0.7,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'seo_content', strict: true, schema: seoJsonSchema },
      },
    })
    const schema = seoJsonSchema
    expect(schema.required).toEqual(['title', 'description', 'features', 'keywords'])
    expect(schema.additionalProperties).toBe(false)
    const text = buildSeoPrompt(request.details)
    expect(text).toContain('Türkçe')
    expect(text).toContain('JSON')
    expect(text).toContain('Ürün adı: Seramik Kahve Kupası')
    expect(text).toContain('Malzeme: seramik')
  })

  it('leaves the details context out when the seller typed none', () => {
    expect(buildSeoPrompt({})).not.toContain('ürün bilgileri')
  })
})

describe('OpenAI-compatible SEO: replies', () => {
  it('retries 429 and 503 (SDK retries, seen in the fake log) and then succeeds', async () => {
    fake.script([429, 503, 'valid'])
    const result = await provider().writeSeo(request, context())
    expect(result.title).toBe(validSeoCopy.title)
    expect(fake.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2'])
  })

  it('429 on every attempt is rate_limited after 2 retries', async () => {
    fake.script([429, 429, 429])
    const error = await failureOf(provider().writeSeo(request, context()))
    expect(error.failure).toBe('rate_limited')
    expect(fake.requests).toHaveLength(3)
  })

  it('500 on every attempt is unavailable', async () => {
    fake.script([500, 500, 500])
    const error = await failureOf(provider().writeSeo(request, context()))
    expect(error.failure).toBe('unavailable')
    expect(error.message).toBe('The language model service is unavailable')
  })

  it('reads the JSON out of prose and a code fence', async () => {
    fake.script(['prose'])
    const result = await provider().writeSeo(request, context())
    expect(result).toMatchObject({ title: validSeoCopy.title, keywords: validSeoCopy.keywords })
  })

  it('brings over-long values within the limits', async () => {
    fake.script(['too-long'])
    const result = await provider().writeSeo(request, context())
    expect(result.title.length).toBeLessThanOrEqual(seoLimits.titleMax)
    expect(result.description.length).toBeLessThanOrEqual(seoLimits.descriptionMax)
    expect(result.features.length).toBe(seoLimits.featuresMax)
    expect(seoContentSchema.safeParse(result).success).toBe(true)
    expect(fake.requests).toHaveLength(1)
  })

  it('8 keywords: one more attempt (with a reminder), then bad_output', async () => {
    fake.script(['eight-keywords', 'eight-keywords'])
    const error = await failureOf(provider().writeSeo(request, context()))
    expect(error.failure).toBe('bad_output')
    expect(fake.requests).toHaveLength(2)
    const second = bodies()[1] as { messages: Array<{ content: Array<{ text?: string }> }> }
    expect(second.messages[0]?.content[0]?.text).toBe(buildSeoPrompt(request.details, { isRetry: true }))
    expect(logLines.some((l) => l.includes('SEO reply unusable'))).toBe(true)
  })

  it('8 keywords and then a good reply succeeds on the second attempt', async () => {
    fake.script(['eight-keywords', 'valid'])
    const result = await provider().writeSeo(request, context())
    expect(result.keywords).toHaveLength(10)
  })

  it('malformed replies twice are bad_output', async () => {
    fake.script(['malformed', 'malformed'])
    const error = await failureOf(provider().writeSeo(request, context()))
    expect(error.failure).toBe('bad_output')
  })

  it('a server without json_schema support is asked again without response_format', async () => {
    fake.script(['schema-unsupported', 'prose'])
    const result = await provider().writeSeo(request, context())
    expect(result.title).toBe(validSeoCopy.title)
    const [first, second] = bodies()
    expect(first?.response_format).toMatchObject({ type: 'json_schema' })
    expect(second).not.toHaveProperty('response_format')
    expect(second?.max_tokens).toBe(1000)
  })

  it('stays without response_format for the second attempt once the server refused it', async () => {
    fake.script(['schema-unsupported', 'malformed', 'valid'])
    await provider().writeSeo(request, context())
    expect(bodies().map((b) => 'response_format' in b)).toEqual([true, false, false])
  })

  it('a refusal is rejected', async () => {
    fake.script(['refusal'])
    const error = await failureOf(provider().writeSeo(request, context()))
    expect(error.failure).toBe('rejected')
  })
})

describe('OpenAI-compatible SEO: failures', () => {
  it('401 is unauthorized and the key is in no message, cause or log', async () => {
    fake.script([401])
    const error = await failureOf(provider().writeSeo(request, context()))
    expect(error.failure).toBe('unauthorized')
    expect(fake.requests).toHaveLength(1)
    expect(error.message).not.toContain(apiKey)
    expect(String((error.cause as Error | undefined)?.message)).not.toContain(apiKey)
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(apiKey)
  })

  it('without a key fails as unauthorized', async () => {
    const error = await failureOf(provider({ apiKey: undefined }).writeSeo(request, context()))
    expect(error.failure).toBe('unauthorized')
    expect(fake.requests).toHaveLength(0)
  })

  it('a server that does not answer in time is timeout', async () => {
    fake.script(['hang'])
    const error = await failureOf(provider({ timeoutMs: 150, maxRetries: 0 }).writeSeo(request, context()))
    expect(error.failure).toBe('timeout')
  })

  it('a server that cannot be reached is unavailable', async () => {
    const closed = await startOpenAiFake()
    const url = closed.url
    await closed.close()
    const error = await failureOf(provider({ baseUrl: url, maxRetries: 0 }).writeSeo(request, context()))
    expect(error.failure).toBe('unavailable')
  })

  it('an abort is canceled', async () => {
    fake.script(['hang'])
    const controller = new AbortController()
    const writing = provider().writeSeo(request, context(controller.signal))
    await expect.poll(() => fake.requests.length).toBe(1)
    controller.abort()
    const error = await failureOf(writing)
    expect(error.failure).toBe('canceled')
  })
})

describe('OpenAI-compatible SEO: the seller’s facts', () => {
  const withFacts: SeoRequest = {
    ...request,
    details: { name: 'Espresso Fincanı', color: 'Kırmızı', features: ['90 ml fincan'] },
  }

  it('asks again naming the dropped facts, and takes an answer that keeps them', async () => {
    fake.script(['drops-facts', 'valid'])
    const result = await provider().writeSeo(withFacts, context())
    expect(factViolations(result, withFacts.details)).toEqual([])
    expect(result.title).toContain('Espresso Fincanı')
    expect(result.features).toContain('90 ml fincan')
    expect(fake.requests).toHaveLength(2)
    const second = bodies()[1] as { messages: Array<{ content: Array<{ text?: string }> }> }
    const text = second.messages[0]?.content[0]?.text ?? ''
    expect(text).toContain('Ürün adı başlıkta aynen geçmeli: "Espresso Fincanı"')
    expect(text).toContain('"beyaz" rengini hiçbir yerde kullanma')
  })

  it('refuses copy that breaks a fact twice as facts_broken; the details stay in the log', async () => {
    fake.script(['drops-facts', 'drops-facts'])
    const error = await failureOf(provider().writeSeo(withFacts, context()))
    expect(error.failure).toBe('facts_broken')
    expect(error.message).toBe("The language model's copy broke the seller's product details")
    expect(fake.requests).toHaveLength(2)
    const logged = logLines.filter((line) => line.includes('breaks the seller facts'))
    expect(logged).toHaveLength(2)
    expect(logged[0]).toContain('"fact":"name"')
  })

  it('asks again for a keyword with a comma or a promotional phrase, and fails as bad_output if it stays', async () => {
    const promotional = {
      ...validSeoCopy,
      description: `${validSeoCopy.description.slice(0, 120)} Hemen sepete ekleyin!`,
    }
    const comma = { ...validSeoCopy, keywords: ['seramik kupa, 350 ml', ...validSeoCopy.keywords.slice(1)] }
    fake.script([{ content: JSON.stringify(promotional) }, { content: JSON.stringify(comma) }])
    const error = await failureOf(provider().writeSeo(request, context()))
    expect(error.failure).toBe('bad_output')
    const second = bodies()[1] as { messages: Array<{ content: Array<{ text?: string }> }> }
    expect(second.messages[0]?.content[0]?.text).toContain('Tanıtım ifadesi kullanma: "hemen"')
  })
})
