import { ApiError } from '#web/lib/api-client.ts'

/** A price or quantity as typed in Turkish or English ("1.299,90", "1299.90"); NaN when unreadable. */
export function numberOf(text: string): number {
  const cleaned = text.replace(/[\s₺]|TL/gi, '')
  const normalised = /,\d{1,2}$/.test(cleaned)
    ? cleaned.replace(/\./g, '').replace(',', '.')
    : cleaned.replace(/,/g, '')
  return normalised === '' ? Number.NaN : Number(normalised)
}

/**
 * The fields under `prefix` ("listing.", "defaults.") a refusal of the server names as at fault
 * (details.fields of VALIDATION_FAILED), so the form can mark them.
 */
export function fieldsAtFault(error: unknown, prefix: string): Set<string> {
  const fields = error instanceof ApiError ? (error.details?.fields ?? {}) : {}
  return new Set(
    Object.keys(fields)
      .filter((path) => path.startsWith(prefix))
      .map((path) => path.slice(prefix.length).split('.')[0] ?? ''),
  )
}
