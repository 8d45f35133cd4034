import { type Logger, pino } from 'pino'

export type { Logger }

/** Structured JSON logs on stdout, one object a line. Secrets are redacted by path. */
export function createLogger(options: { level: string; base?: Record<string, unknown> }): Logger {
  return pino({
    level: options.level,
    base: { service: 'vitrin', ...options.base },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
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
  })
}
