import { z } from 'zod'

/** Why a field was refused; each reason is an i18n key under `errors.field.*`. */
export type FieldReason =
  | 'required'
  | 'email'
  | 'tooShort'
  | 'tooLong'
  | 'invalid'
  /** A field the schema does not know (strict objects, e.g. the public API's inputs). */
  | 'unknown'
  /** A password from the list of the most common ones. */
  | 'tooCommon'
  /** A password that is the account's own email. */
  | 'sameAsEmail'

/** Reasons a schema names itself, on a custom issue: `params: { reason }`. */
const customReasons = new Set<FieldReason>(['tooCommon', 'sameAsEmail'])

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
  if (issue.code === 'custom') {
    const reason = issue.params?.reason as FieldReason | undefined
    if (reason && customReasons.has(reason)) return reason
  }
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
    if (issue.code === 'unrecognized_keys') {
      // A strict object names each field it does not know, under its own path.
      for (const key of issue.keys) fields[[...issue.path, key].join('.')] ??= 'unknown'
      continue
    }
    const path = issue.path.length > 0 ? issue.path.join('.') : '_root'
    fields[path] ??= reasonOf(issue, input)
  }
  return fields
}

// C0 control characters other than tab, newline and carriage return, and DEL. NUL in particular
// is refused by PostgreSQL, and none of them belongs in text a person typed.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether text is fit to store: no control characters (bar tab, CR, LF), no lone surrogates. */
export function isSafeText(value: string): boolean {
  return !controlCharacters.test(value) && !loneSurrogate.test(value)
}

/** The text with unsafe characters (see isSafeText) removed, for text we did not take from a form. */
export function withoutUnsafeText(value: string): string {
  return value
    .replace(new RegExp(controlCharacters.source, 'g'), '')
    .replace(new RegExp(loneSurrogate.source, 'g'), '')
}

/**
 * A string schema that refuses unsafe text (see isSafeText) with the `invalid` reason. Every
 * free-text field of the contracts starts from it, so that such text never reaches the database.
 */
export function safeText() {
  return z.string().refine(isSafeText, { message: 'Invalid characters' })
}
