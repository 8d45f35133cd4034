import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import type { ChatCompletion } from 'openai/resources/chat/completions'
import type { Logger } from '#server/logger.ts'
import type { ProviderFailure } from '../types.ts'

// What every call to the OpenAI-compatible chat API shares (the SEO writer, the attribute
// chooser): one way to build the SDK client, to keep the key out of logs, to name a failure, and
// to fall back when a compatible server refuses `response_format: json_schema`.

export type OpenAiClientOptions = {
  /** OPENAI_API_KEY (any non-empty value for a local Ollama). */
  apiKey: string | undefined
  /** OPENAI_BASE_URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 */
  baseUrl: string
  /** SDK retries on 408/409/429/5xx and connection errors (default 2). */
  maxRetries?: number | undefined
  /** Per-request timeout in ms (default 10 minutes). */
  timeoutMs?: number | undefined
  /** The fetch to use (tests may wrap it). */
  fetch?: typeof fetch | undefined
}

const logTextMax = 1000

/** Removes the key from text bound for logs or error causes (some servers echo it on 401). */
export function scrub(text: string, secret: string | undefined): string {
  const clean = secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text
  return clean.length > logTextMax ? `${clean.slice(0, logTextMax)}… (${clean.length} chars)` : clean
}

/** True for a 400 saying the server does not do `response_format`/json_schema. */
export function isSchemaUnsupported(error: unknown): boolean {
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

/** The SDK client for one call, its log lines going to `log` with the key scrubbed. */
export function createOpenAiClient(options: OpenAiClientOptions & { apiKey: string }, log: Logger): OpenAI {
  return new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeoutMs ?? 600_000,
    logger: sdkLogger(log, options.apiKey),
    logLevel: 'info',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
}

/** A failed call, named: the failure, and what may be logged of it (never the key). */
export type OpenAiCallFailure = {
  failure: ProviderFailure
  status: number | undefined
  requestId: string | null | undefined
  /** The error's text with the key removed; '(omitted)' for auth failures, which may echo it. */
  message: string
  /** The error's text with the key removed, for an error's cause (which never reaches a user). */
  causeMessage: string
}

/** Names a failed SDK call (after the SDK's own retries) as a provider failure. */
export function describeOpenAiFailure(
  error: unknown,
  signal: AbortSignal,
  secret: string | undefined,
): OpenAiCallFailure {
  const status = error instanceof APIError ? error.status : undefined
  const causeMessage = error instanceof Error ? scrub(error.message, secret) : scrub(String(error), secret)
  let failure: ProviderFailure
  if (signal.aborted || error instanceof APIUserAbortError) failure = 'canceled'
  else if (error instanceof APIConnectionTimeoutError) failure = 'timeout'
  else if (error instanceof APIConnectionError) failure = 'unavailable'
  else if (error instanceof APIError && typeof status === 'number') {
    if (status === 401 || status === 403) failure = 'unauthorized'
    else if (status === 429) failure = 'rate_limited'
    else if (status === 408) failure = 'timeout'
    else if (status >= 500) failure = 'unavailable'
    else failure = 'rejected'
  } else failure = 'unavailable'
  return {
    failure,
    status,
    requestId: error instanceof APIError ? error.requestID : undefined,
    // Auth failures may echo (part of) the key: their text is not worth the risk.
    message: status === 401 || status === 403 ? '(omitted)' : causeMessage,
    causeMessage,
  }
}

/**
 * Sends with `response_format: json_schema` while `state.useSchema` holds; a server that
 * refuses it (older or other compatible servers) is asked once more without it, and the state
 * remembers that for later attempts. The prompt itself asks for JSON, and replies are parsed
 * leniently.
 */
export async function completeWithSchemaFallback(
  send: (useSchema: boolean) => Promise<ChatCompletion>,
  state: { useSchema: boolean },
  context: { log: Logger; model: string },
): Promise<ChatCompletion> {
  try {
    return await send(state.useSchema)
  } catch (error) {
    if (!state.useSchema || !isSchemaUnsupported(error)) throw error
    context.log.info(
      { provider: 'openai', model: context.model },
      'server does not support json_schema response_format; retrying without it',
    )
    state.useSchema = false
    return await send(false)
  }
}
