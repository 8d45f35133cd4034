import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions'
import type { Logger } from '#server/logger.ts'
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
import { extractJsonObject } from './parse-json.ts'

export type OpenAiSeoOptions = {
  /** OPENAI_API_KEY (any non-empty value for a local Ollama). */
  apiKey: string | undefined
  /** OPENAI_BASE_URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 */
  baseUrl: string
  /** A chat model that accepts an image. */
  model: string
  /** SDK retries on 408/409/429/5xx and connection errors (default 2). */
  maxRetries?: number | undefined
  /** Per-request timeout in ms (default 10 minutes). */
  timeoutMs?: number | undefined
  /** The fetch to use (tests may wrap it). */
  fetch?: typeof fetch | undefined
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
const logTextMax = 1000

/** Removes the key from text bound for logs or error causes (some servers echo it on 401). */
function scrub(text: string, secret: string | undefined): string {
  const clean = secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text
  return clean.length > logTextMax ? `${clean.slice(0, logTextMax)}… (${clean.length} chars)` : clean
}

/** True for a 400 saying the server does not do `response_format`/json_schema. */
function isSchemaUnsupported(error: unknown): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false
  if (error.param === 'response_format') return true
  return /response_format|json_schema|structured output/i.test(error.message)
}

/** Routes the SDK's own log lines (retries, response summaries) into our logger, quietly. */
function sdkLogger(log: Logger, secret: string | undefined) {
  const line = (level: 'debug' | 'warn' | 'error') => (message: string) =>
    log[level]({ provider: 'openai', sdk: true }, scrub(message, secret))
  return { debug: line('debug'), info: line('debug'), warn: line('warn'), error: line('error') }
}

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
    if (ctx.signal.aborted || error instanceof APIUserAbortError) return seoError('canceled')
    let failure: ProviderFailure
    if (error instanceof APIConnectionTimeoutError) failure = 'timeout'
    else if (error instanceof APIConnectionError) failure = 'unavailable'
    else if (error instanceof APIError && typeof error.status === 'number') {
      const status = error.status
      if (status === 401 || status === 403) failure = 'unauthorized'
      else if (status === 429) failure = 'rate_limited'
      else if (status === 408) failure = 'timeout'
      else if (status >= 500) failure = 'unavailable'
      else failure = 'rejected'
    } else failure = 'unavailable'
    const status = error instanceof APIError ? error.status : undefined
    const message = error instanceof Error ? scrub(error.message, secret) : scrub(String(error), secret)
    ctx.log.warn(
      {
        provider: 'openai',
        model: options.model,
        status,
        requestId: error instanceof APIError ? error.requestID : undefined,
        // Auth failures may echo (part of) the key: their text is not worth the risk.
        error: status === 401 || status === 403 ? '(omitted)' : message,
        failure,
      },
      'SEO request failed',
    )
    // The cause keeps status and the scrubbed text only: the SDK error holds the raw body.
    return seoError(failure, Object.assign(new Error(message), { status }))
  }

  async function complete(
    client: OpenAI,
    request: SeoRequest,
    state: { useSchema: boolean },
    retry: { isRetry: boolean; problems?: readonly SeoProblem[] },
    ctx: ProviderCallContext,
  ): Promise<ChatCompletion> {
    const send = () =>
      client.chat.completions.create(
        buildSeoRequestBody(request, { model: options.model, useSchema: state.useSchema, ...retry }),
        { signal: ctx.signal },
      )
    try {
      return await send()
    } catch (error) {
      if (!state.useSchema || !isSchemaUnsupported(error)) throw error
      // Older or other compatible servers refuse json_schema: ask once more without it; the
      // prompt itself asks for JSON, and the reply is parsed leniently.
      ctx.log.info(
        { provider: 'openai', model: options.model },
        'server does not support json_schema response_format; retrying without it',
      )
      state.useSchema = false
      return await send()
    }
  }

  async function writeSeo(request: SeoRequest, ctx: ProviderCallContext): Promise<SeoCopy> {
    if (!options.apiKey) throw seoError('unauthorized', new Error('OPENAI_API_KEY is not set'))
    const client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeoutMs ?? 600_000,
      logger: sdkLogger(ctx.log, secret),
      logLevel: 'info',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    })
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
