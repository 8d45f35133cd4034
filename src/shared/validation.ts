import type { z } from 'zod'

/** Why a field was refused; each reason is an i18n key under `errors.field.*`. */
export type FieldReason = 'required' | 'email' | 'tooShort' | 'tooLong' | 'invalid'

function reasonOf(issue: z.core.$ZodIssue): FieldReason {
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) return 'required'
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required'
  if (issue.code === 'invalid_format' && issue.format === 'email') return 'email'
  if (issue.code === 'too_small' && issue.origin === 'string') return 'tooShort'
  if (issue.code === 'too_big') return 'tooLong'
  return 'invalid'
}

/** Turns a zod error into one reason per field (the first issue of each), keyed by dotted path. */
export function toFieldErrors(error: z.ZodError): Record<string, FieldReason> {
  const fields: Record<string, FieldReason> = {}
  for (const issue of error.issues) {
    const path = issue.path.length > 0 ? issue.path.join('.') : '_root'
    fields[path] ??= reasonOf(issue)
  }
  return fields
}
