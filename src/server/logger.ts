import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino'

export type { Logger }

/** Structured JSON logs on stdout, one object a line. Secrets are redacted by path. */
export function createLogger(options: {
  level: string
  base?: Record<string, unknown>
  /** Where lines go instead of stdout (tests read them). */
  destination?: DestinationStream
}): Logger {
  const settings: LoggerOptions = {
    level: options.level,
    base: { service: 'vitrin', ...options.base },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Failed queries carry their parameters (users' text, emails, tokens); only the SQL is logged.
    serializers: { err: serializeError },
    redact: {
      paths: [
        '*.password',
        '*.apiKey',
        '*.authorization',
        '*.cookie',
        'req.headers.cookie',
        'req.headers.authorization',
      ],
      censor: '[redacted]',
    },
  }
  return options.destination ? pino(settings, options.destination) : pino(settings)
}

type QueryError = { query: string; params: unknown[] }

function isQueryError(value: unknown): value is QueryError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<QueryError>).query === 'string' &&
    Array.isArray((value as Partial<QueryError>).params)
  )
}

/** The `\nparams: …` texts of the failed queries in an error's cause chain. */
function queryParamTexts(error: unknown): string[] {
  const texts: string[] = []
  let node: unknown = error
  for (let depth = 0; depth < 10 && typeof node === 'object' && node !== null; depth++) {
    if (isQueryError(node)) texts.push(`\nparams: ${node.params}`)
    node = (node as { cause?: unknown }).cause
  }
  return texts
}

function withoutParams(text: string, paramTexts: string[]): string {
  return paramTexts.reduce((out, params) => out.replaceAll(params, ''), text)
}

/** A value as one log string (e.g. a library's log arguments), without failed queries' parameters. */
export function describeForLog(value: unknown): string {
  return withoutParams(String(value), queryParamTexts(value))
}

/**
 * pino's error serializer, minus the parameters of failed queries: Drizzle puts them in the
 * error's `params`, and also in its message (`Failed query: …\nparams: …`) and so its stack,
 * which pino copies into the messages and stacks of the errors that wrap it.
 */
export function serializeError(error: unknown): unknown {
  const paramTexts = queryParamTexts(error)
  const serialized = pino.stdSerializers.err(error as Error)
  if (paramTexts.length === 0) return serialized
  const scrub = (text: unknown) => (typeof text === 'string' ? withoutParams(text, paramTexts) : text)
  const scrubbed = serialized as unknown as Record<string, unknown>
  scrubbed.message = scrub(scrubbed.message)
  scrubbed.stack = scrub(scrubbed.stack)
  delete scrubbed.params
  return scrubbed
}
