import type { z } from 'zod'

/** Why a field was refused; each reason is an i18n key under `errors.field.*`. */
export type FieldReason = 'required' | 'email' | 'tooShort' | 'tooLong' | 'invalid'

/** The value at a dotted path of the raw input, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = input
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<PropertyKey, unknown>)[key]
  }
  return node
}

function reasonOf(issue: z.core.$ZodIssue, input: unknown): FieldReason {
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) return 'required'
  // Zod reports a missing field and a wrong-typed one alike; the raw input tells them apart.
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return 'required'
  if (issue.code === 'invalid_format' && issue.format === 'email') return 'email'
  if (issue.code === 'too_small' && issue.origin === 'string') return 'tooShort'
  if (issue.code === 'too_big') return 'tooLong'
  return 'invalid'
}

/**
 * Turns a zod error into one reason per field (the first issue of each), keyed by dotted path.
 * `input` is the value that was parsed.
 */
export function toFieldErrors(error: z.ZodError, input: unknown): Record<string, FieldReason> {
  const fields: Record<string, FieldReason> = {}
  for (const issue of error.issues) {
    const path = issue.path.length > 0 ? issue.path.join('.') : '_root'
    fields[path] ??= reasonOf(issue, input)
  }
  return fields
}
