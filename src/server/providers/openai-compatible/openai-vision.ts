import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions'
import sharp from 'sharp'
import { buildAttributePrompt } from '../prompts.ts'
import {
  type AttributeChoice,
  type AttributeChoiceRequest,
  type AttributeVisionProvider,
  type ChoosableAttribute,
  type ProviderCallContext,
  ProviderError,
  type ProviderFailure,
} from '../types.ts'
import {
  completeWithSchemaFallback,
  createOpenAiClient,
  describeOpenAiFailure,
  type OpenAiClientOptions,
  scrub,
} from './openai-client.ts'
import { extractJsonObject } from './parse-json.ts'

// A marketplace category's attributes chosen from the product photo by an OpenAI-compatible
// vision model (issue 30, point 3): the photo and each attribute's allowed values go out, and
// strict structured output holds the answer to those values' ids.

export type OpenAiVisionOptions = OpenAiClientOptions & {
  /** VISION_MODEL: a chat model that accepts an image and, ideally, json_schema output. */
  model: string
}

/** The photo's longest side as sent: enough to tell a material or a shape, few image tokens. */
export const visionPhotoSide = 768

/**
 * Enum values one strict schema may hold in all (OpenAI's structured-output limit), and the
 * characters of one enum past 250 values. Attributes past them are not asked: they stay the
 * seller's to answer.
 */
export const visionSchemaLimits = { enumValues: 1000, largeEnum: 250, largeEnumChars: 15_000 }

const failureMessages: Record<ProviderFailure, string> = {
  rejected: 'The vision model rejected the request',
  unavailable: 'The vision model service is unavailable',
  rate_limited: 'The vision model service is rate limiting requests',
  unauthorized: 'The vision model key was not accepted',
  bad_output: 'The vision model did not return usable attribute choices',
  facts_broken: 'The vision model contradicted the seller',
  timeout: 'The vision model request timed out',
  canceled: 'The vision model request was canceled',
}

function visionError(failure: ProviderFailure, cause?: unknown): ProviderError {
  return new ProviderError('openai', failure, failureMessages[failure], cause === undefined ? {} : { cause })
}

/** The photo as the model gets it: upright, at most 768 px a side, JPEG on white. */
export async function visionPhoto(photo: Buffer): Promise<Buffer> {
  return sharp(photo)
    .rotate()
    .resize({ width: visionPhotoSide, height: visionPhotoSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer()
}

/**
 * The attributes one request asks about: required ones first, then the others, each whole or
 * not at all, while the schema stays within the structured-output limits.
 */
export function attributesToAsk(attributes: readonly ChoosableAttribute[]): ChoosableAttribute[] {
  const ordered = [
    ...attributes.filter((attribute) => attribute.isRequired),
    ...attributes.filter((attribute) => !attribute.isRequired),
  ]
  const asked: ChoosableAttribute[] = []
  let enumValues = 0
  for (const attribute of ordered) {
    const count = attribute.values.length
    if (count === 0 || asked.some((other) => other.id === attribute.id)) continue
    if (enumValues + count > visionSchemaLimits.enumValues) continue
    const chars = attribute.values.reduce((sum, value) => sum + value.id.length, 0)
    if (count > visionSchemaLimits.largeEnum && chars > visionSchemaLimits.largeEnumChars) continue
    asked.push(attribute)
    enumValues += count
  }
  // In the category's own order, as the seller sees them.
  return attributes.filter((attribute) => asked.includes(attribute))
}

/**
 * Strict structured output: one property per attribute (its id), every one required; a
 * single-value attribute answers one allowed id or null, a multi-value one a list of allowed ids.
 */
export function attributeJsonSchema(attributes: readonly ChoosableAttribute[]) {
  const properties: Record<string, unknown> = {}
  for (const attribute of attributes) {
    const ids = { type: 'string', enum: attribute.values.map((value) => value.id) }
    properties[attribute.id] = attribute.isMultiple
      ? { type: 'array', items: ids, description: attribute.name }
      : { anyOf: [ids, { type: 'null' }], description: attribute.name }
  }
  return {
    type: 'object',
    properties,
    required: attributes.map((attribute) => attribute.id),
    additionalProperties: false,
  }
}

/** The exact chat request: one user message with the instruction and the (downscaled) photo. */
export function buildAttributeRequestBody(
  request: {
    photo: Buffer
    attributes: readonly ChoosableAttribute[]
    product?: AttributeChoiceRequest['product']
  },
  options: { model: string; useSchema: boolean },
): ChatCompletionCreateParamsNonStreaming {
  const prompt = buildAttributePrompt(
    request.attributes.map((attribute) => ({ ...attribute, key: attribute.id })),
    request.product ?? {},
  )
  return {
    model: options.model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: prompt },
          // 'low': one 512 px view is enough to tell colour, shape and count, at a fixed cost.
          {
            type: 'image_url',
            image_url: { url: `data:image/jpeg;base64,${request.photo.toString('base64')}`, detail: 'low' },
          },
        ],
      },
    ],
    max_tokens: 1000,
    // Choosing, not writing: the most likely answer every time.
    temperature: 0,
    ...(options.useSchema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: {
              name: 'product_attributes',
              strict: true,
              schema: attributeJsonSchema(request.attributes),
            },
          },
        }
      : {}),
  }
}

/** Allowed ids of an answer's value for one attribute (a multi-value one may have several). */
function idsIn(answer: unknown, attribute: ChoosableAttribute): { kept: string[]; dropped: number } {
  const given = (Array.isArray(answer) ? answer : [answer]).filter(
    (value): value is string | number => typeof value === 'string' || typeof value === 'number',
  )
  const allowed = new Set(attribute.values.map((value) => value.id))
  const kept = [...new Set(given.map(String))].filter((id) => allowed.has(id))
  return {
    kept: attribute.isMultiple ? kept : kept.slice(0, 1),
    dropped: given.length - kept.length,
  }
}

/**
 * Attribute values from the photo through any OpenAI-compatible chat API that takes images.
 * Structured output where the server supports it, else the first JSON object in the reply;
 * either way only allowed value ids are kept. One attempt: the seller is waiting on the form,
 * and an attribute not chosen is simply asked.
 */
export function createOpenAiVisionProvider(options: OpenAiVisionOptions): AttributeVisionProvider {
  const secret = options.apiKey

  async function chooseAttributes(
    request: AttributeChoiceRequest,
    ctx: ProviderCallContext,
  ): Promise<AttributeChoice[]> {
    if (!options.apiKey) throw visionError('unauthorized', new Error('OPENAI_API_KEY is not set'))
    const attributes = attributesToAsk(request.attributes)
    if (attributes.length === 0) return []
    const photo = await visionPhoto(request.photo)
    const client = createOpenAiClient({ ...options, apiKey: options.apiKey }, ctx.log)
    const send = (useSchema: boolean) =>
      client.chat.completions.create(
        buildAttributeRequestBody(
          { photo, attributes, product: request.product },
          { model: options.model, useSchema },
        ),
        { signal: ctx.signal },
      )
    const context = { provider: 'openai', model: options.model, attributes: attributes.length }
    let completion: Awaited<ReturnType<typeof send>>
    try {
      completion = await completeWithSchemaFallback(
        send,
        { useSchema: true },
        { log: ctx.log, model: options.model },
      )
    } catch (error) {
      const failed = describeOpenAiFailure(error, ctx.signal, secret)
      if (failed.failure !== 'canceled') {
        ctx.log.warn(
          {
            ...context,
            status: failed.status,
            requestId: failed.requestId,
            error: failed.message,
            failure: failed.failure,
          },
          'attribute vision request failed',
        )
      }
      throw visionError(
        failed.failure,
        Object.assign(new Error(failed.causeMessage), { status: failed.status }),
      )
    }
    const choice = completion.choices[0]
    const message = choice?.message
    if (message?.refusal) {
      ctx.log.warn(
        { ...context, refusal: scrub(message.refusal, secret) },
        'the model refused to choose attributes',
      )
      throw visionError('rejected', new Error('model refusal'))
    }
    const content = message?.content ?? ''
    const parsed = extractJsonObject(content)
    if (parsed === undefined || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      ctx.log.warn(
        { ...context, finishReason: choice?.finish_reason, content: scrub(content, secret) },
        'attribute vision reply unusable',
      )
      throw visionError('bad_output', new Error('no JSON object in the reply'))
    }
    const answers = parsed as Record<string, unknown>
    let dropped = 0
    const choices = attributes.flatMap((attribute) => {
      const ids = idsIn(answers[attribute.id], attribute)
      dropped += ids.dropped
      return ids.kept.length > 0 ? [{ attributeId: attribute.id, valueIds: ids.kept }] : []
    })
    ctx.log.info(
      { ...context, chosen: choices.length, dropped, promptTokens: completion.usage?.prompt_tokens },
      'attributes chosen from the photo',
    )
    return choices
  }

  return { name: 'openai', model: options.model, chooseAttributes }
}
