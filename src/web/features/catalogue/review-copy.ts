import { type RowCopyRequest, reviewLimits } from '#shared/contracts/catalogue.ts'
import type { SeoContent } from '#shared/seo.ts'
import { seoLimits } from '#shared/seo.ts'
import { keywordProblems } from '#shared/seo-facts.ts'

// The review's copy form: features and keywords are edited one a line, and checked as the
// server checks them (rowCopyRequestSchema), so the seller sees what is wrong before saving.

/** The form's values: each field as typed. */
export type CopyDraft = { title: string; description: string; features: string; keywords: string }

export type CopyField = keyof CopyDraft

/** What is wrong with one field, as the review says it (catalogue.review.problems.*). */
export type CopyProblem =
  | { kind: 'required' | 'tooLong' | 'oneLine' }
  | { kind: 'featuresCount' }
  | { kind: 'featureTooLong' }
  | { kind: 'keywordsCount' }
  | { kind: 'keywordTooLong' }
  | { kind: 'separator' | 'path' | 'promotional'; keyword: string }

export function draftOf(copy: SeoContent | null): CopyDraft {
  return {
    title: copy?.title ?? '',
    description: copy?.description ?? '',
    features: copy?.features.join('\n') ?? '',
    keywords: copy?.keywords.join('\n') ?? '',
  }
}

function lines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** The request the form sends: text trimmed, one feature and one keyword a line. */
export function requestOf(draft: CopyDraft): RowCopyRequest {
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    features: lines(draft.features),
    keywords: lines(draft.keywords),
  }
}

/** Characters as the server counts them (string length after trimming). */
export function lengthOf(text: string): number {
  return text.trim().length
}

export function featureCount(draft: CopyDraft): number {
  return lines(draft.features).length
}

export function keywordCount(draft: CopyDraft): number {
  return lines(draft.keywords).length
}

/** Each field's first problem; a field that is fine is absent. */
export function copyProblems(draft: CopyDraft): Partial<Record<CopyField, CopyProblem>> {
  const problems: Partial<Record<CopyField, CopyProblem>> = {}
  const request = requestOf(draft)
  if (request.title === '') problems.title = { kind: 'required' }
  else if (request.title.length > seoLimits.titleMax) problems.title = { kind: 'tooLong' }
  else if (/[\r\n]/.test(request.title)) problems.title = { kind: 'oneLine' }
  if (request.description === '') problems.description = { kind: 'required' }
  else if (request.description.length > seoLimits.descriptionMax) problems.description = { kind: 'tooLong' }
  if (request.features.length < seoLimits.featuresMin || request.features.length > seoLimits.featuresMax) {
    problems.features = { kind: 'featuresCount' }
  } else if (request.features.some((feature) => feature.length > reviewLimits.featureMax)) {
    problems.features = { kind: 'featureTooLong' }
  }
  if (request.keywords.length < 1 || request.keywords.length > seoLimits.keywords) {
    problems.keywords = { kind: 'keywordsCount' }
  } else {
    for (const keyword of request.keywords) {
      if (keyword.length > reviewLimits.keywordMax) {
        problems.keywords = { kind: 'keywordTooLong' }
        break
      }
      const [first] = keywordProblems(keyword)
      if (first) {
        problems.keywords = { kind: first, keyword }
        break
      }
    }
  }
  return problems
}

/** The form field a server's field path names (`keywords.3` → keywords). */
export function fieldOfPath(path: string): CopyField | null {
  const head = path.split('.')[0]
  return head === 'title' || head === 'description' || head === 'features' || head === 'keywords'
    ? head
    : null
}
