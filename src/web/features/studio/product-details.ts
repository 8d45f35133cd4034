import { type ProductDetails, productDetailsSchema, seoLimits } from '#shared/seo.ts'

// The product details form: what the seller types, and the facts it becomes. Key features are
// typed one per line; blank lines are nothing, and the limits are the shared schema's.

export type DetailsForm = {
  name: string
  category: string
  brand: string
  material: string
  color: string
  description: string
  /** One feature per line. */
  features: string
}

export const emptyDetailsForm: DetailsForm = {
  name: '',
  category: '',
  brand: '',
  material: '',
  color: '',
  description: '',
  features: '',
}

/** Longest key feature, in characters (the shared schema's limit). */
export const featureMax = 100
export const featuresMax = seoLimits.featuresMax

/** The typed key features: one per line, trimmed, blank lines left out. */
export function featureLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** Why the key features cannot be sent as typed, or null when they can. `line` counts from 1. */
export type FeaturesProblem = { kind: 'tooMany'; count: number } | { kind: 'tooLong'; line: number }

export function featuresProblem(text: string): FeaturesProblem | null {
  const lines = featureLines(text)
  if (lines.length > featuresMax) return { kind: 'tooMany', count: lines.length }
  const long = lines.findIndex((line) => line.length > featureMax)
  return long === -1 ? null : { kind: 'tooLong', line: long + 1 }
}

/** The facts the form holds: blank fields left out, text trimmed, features as a list. */
export function detailsFromForm(form: DetailsForm): ProductDetails {
  const details: ProductDetails = {}
  for (const field of ['name', 'category', 'brand', 'material', 'color', 'description'] as const) {
    const value = form[field].trim()
    if (value) details[field] = value
  }
  const features = featureLines(form.features)
  if (features.length > 0) details.features = features
  return details
}

/** Whether the form's details would be accepted as they are (see featuresProblem for the one check a user can trip). */
export function isDetailsFormValid(form: DetailsForm): boolean {
  return productDetailsSchema.safeParse(detailsFromForm(form)).success
}
