import type OpenAI from 'openai'
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions'
import { normalizeSeoContent } from '#shared/seo.ts'
import { buildSeoPrompt } from '../prompts.ts'
import { breaksFacts, type SeoProblem, seoProblems } from '../seo-problems.ts'
import {
  type ProviderCallContext,
  ProviderError,
  type ProviderFailure,
  type SeoCopy,
  type SeoProvider,
  type SeoRequest,
} from '../types.ts'
import {
  completeWithSchemaFallback,
  createOpenAiClient,
  describeOpenAiFailure,
  type OpenAiClientOptions,
  scrub,
} from './openai-client.ts'
import { extractJsonObject } from './parse-json.ts'

export type OpenAiSeoOptions = OpenAiClientOptions & {
  /** A chat model that accepts an image. */
  model: string
}

/** Strict structured output: every field required, nothing else allowed (limits from #shared/seo.ts). */
export const seoJsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'Turkish product title, at most 60 characters' },
    description: { type: 'string', description: 'Turkish meta description, at most 160 characters' },
    features: { type: 'array', items: { type: 'string' }, description: '4 to 6 short product features' },
    keywords: { type: 'array', items: { type: 'string' }, description: 'exactly 10 distinct keywords' },
  },
  required: ['title', 'description', 'features', 'keywords'],
  additionalProperties: false,
} as const

const failureMessages: Record<ProviderFailure, string> = {
  rejected: 'The language model rejected the request',
  unavailable: 'The language model service is unavailable',
  rate_limited: 'The language model service is rate limiting requests',
  unauthorized: 'The language model key was not accepted',
  bad_output: 'The language model did not return usable SEO copy',
  facts_broken: "The language model's copy broke the seller's product details",
  timeout: 'The language model request timed out',
  canceled: 'The language model request was canceled',
}

function seoError(failure: ProviderFailure, cause?: unknown): ProviderError {
  return new ProviderError('openai', failure, failureMessages[failure], cause === undefined ? {} : { cause })
}

/**
 * Copy attempts: the first, plus ONE more when the reply cannot be made valid or breaks the
 * seller's facts (or carries a broken keyword or a promotional phrase).
 */
const maxAttempts = 2

function imageDataUrl(request: SeoRequest): string {
  return `data:${request.image.mime};base64,${request.image.bytes.toString('base64')}`
}

/**
 * The exact chat request: one user message with the instruction and the photo. A second attempt
 * names what was wrong with the first answer (`problems`), when it was readable.
 */
export function buildSeoRequestBody(
  request: SeoRequest,
  options: { model: string; isRetry: boolean; useSchema: boolean; problems?: readonly SeoProblem[] },
): ChatCompletionCreateParamsNonStreaming {
  const prompt = buildSeoPrompt(request.details, {
    isRetry: options.isRetry,
    ...(options.problems ? { problems: options.problems } : {}),
  })
  return {
    model: options.model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: prompt },
          // 'low' detail: a product photo needs no tiles, and images cost many tokens on mini.
          { type: 'image_url', image_url: { url: imageDataUrl(request), detail: 'low' } },
        ],
      },
    ],
    max_tokens: 1000,
    temperature: 0.7,
    ...(options.useSchema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: 'seo_content', strict: true, schema: seoJsonSchema },
          },
        }
      : {}),
  }
}

/**
 * Turkish SEO copy from any OpenAI-compatible chat API (OpenAI, OpenRouter, Ollama, vLLM).
 * Structured output where the server supports it, else the first JSON object in the reply;
 * always validated and brought within the limits (shared/seo.ts).
 */
export function createOpenAiSeoProvider(options: OpenAiSeoOptions): SeoProvider {
  const secret = options.apiKey

  function toProviderError(error: unknown, ctx: ProviderCallContext): ProviderError {
    if (error instanceof ProviderError) return error
    const failed = describeOpenAiFailure(error, ctx.signal, secret)
    if (failed.failure === 'canceled') return seoError('canceled')
    ctx.log.warn(
      {
        provider: 'openai',
        model: options.model,
        status: failed.status,
        requestId: failed.requestId,
        error: failed.message,
        failure: failed.failure,
      },
      'SEO request failed',
    )
    // The cause keeps status and the scrubbed text only: the SDK error holds the raw body.
    return seoError(failed.failure, Object.assign(new Error(failed.causeMessage), { status: failed.status }))
  }

  async function complete(
    client: OpenAI,
    request: SeoRequest,
    state: { useSchema: boolean },
    retry: { isRetry: boolean; problems?: readonly SeoProblem[] },
    ctx: ProviderCallContext,
  ): Promise<ChatCompletion> {
    const send = (useSchema: boolean) =>
      client.chat.completions.create(
        buildSeoRequestBody(request, { model: options.model, useSchema, ...retry }),
        { signal: ctx.signal },
      )
    return completeWithSchemaFallback(send, state, { log: ctx.log, model: options.model })
  }

  async function writeSeo(request: SeoRequest, ctx: ProviderCallContext): Promise<SeoCopy> {
    if (!options.apiKey) throw seoError('unauthorized', new Error('OPENAI_API_KEY is not set'))
    const client = createOpenAiClient({ ...options, apiKey: options.apiKey }, ctx.log)
    const state = { useSchema: true }
    // What was wrong with the last readable answer: named in the next prompt, and the reason
    // for refusing when no attempt is left.
    let problems: SeoProblem[] | undefined
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let completion: ChatCompletion
      try {
        const retry = { isRetry: attempt > 1, ...(problems ? { problems } : {}) }
        completion = await complete(client, request, state, retry, ctx)
      } catch (error) {
        throw toProviderError(error, ctx)
      }
      const choice = completion.choices[0]
      const message = choice?.message
      if (message?.refusal) {
        ctx.log.warn(
          { provider: 'openai', model: options.model, refusal: scrub(message.refusal, secret) },
          'the model refused to write SEO copy',
        )
        throw seoError('rejected', new Error('model refusal'))
      }
      const content = message?.content ?? ''
      const parsed = extractJsonObject(content)
      const normalized = parsed === undefined ? null : normalizeSeoContent(parsed)
      if (!normalized) {
        problems = undefined
        ctx.log.warn(
          {
            provider: 'openai',
            model: options.model,
            attempt,
            finishReason: choice?.finish_reason,
            reason: parsed === undefined ? 'no JSON object in the reply' : 'reply outside the SEO limits',
            content: scrub(content, secret),
          },
          'SEO reply unusable',
        )
        continue
      }
      problems = seoProblems(normalized, request.details)
      if (problems.length === 0) return { ...normalized, model: completion.model || options.model }
      // The seller's facts win: copy that drops or contradicts one is never handed back.
      ctx.log.warn(
        { provider: 'openai', model: options.model, attempt, problems, content: scrub(content, secret) },
        'SEO reply breaks the seller facts or the keyword rules',
      )
    }
    if (problems && breaksFacts(problems)) {
      throw seoError('facts_broken', Object.assign(new Error('copy broke the seller facts'), { problems }))
    }
    throw seoError(
      'bad_output',
      problems ? Object.assign(new Error('copy broke the rules'), { problems }) : undefined,
    )
  }

  return { name: 'openai', writeSeo }
}
