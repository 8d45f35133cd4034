import type { ProductDetails, SeoContent } from '#shared/seo.ts'
import {
  type FactViolation,
  factViolations,
  keywordProblems,
  promotionalPhrasesIn,
} from '#shared/seo-facts.ts'

// What keeps a piece of SEO copy from being published as it is: a broken seller fact, a keyword
// a marketplace's keyword field cannot take, or a promotional phrase. A language model's answer
// is checked with this and, once, asked again with the problems named (see openai-seo.ts).

export type SeoProblem =
  | FactViolation
  | { fact?: undefined; kind: 'keyword'; keyword: string; problem: 'separator' | 'path' | 'promotional' }
  | { fact?: undefined; kind: 'promotional'; phrase: string }

/** Every problem of `content` against the seller's `details`; empty when it can be published. */
export function seoProblems(content: SeoContent, details: ProductDetails): SeoProblem[] {
  const problems: SeoProblem[] = [...factViolations(content, details)]
  for (const keyword of content.keywords) {
    for (const problem of keywordProblems(keyword)) {
      // A promotional keyword is named once, among the phrases below.
      if (problem !== 'promotional') problems.push({ kind: 'keyword', keyword, problem })
    }
  }
  const text = [content.title, content.description, ...content.features, ...content.keywords].join('\n')
  for (const phrase of promotionalPhrasesIn(text)) problems.push({ kind: 'promotional', phrase })
  return problems
}

/** Whether the problems include a broken seller fact (the rest are about form). */
export function breaksFacts(problems: readonly SeoProblem[]): boolean {
  return problems.some((problem) => problem.fact !== undefined)
}

const factNames: Record<FactViolation['fact'], string> = {
  name: 'Ürün adı başlıkta',
  brand: 'Marka başlıkta ya da özelliklerde',
  material: 'Malzeme başlıkta ya da özelliklerde',
  color: 'Renk başlıkta ya da özelliklerde',
  features: 'Satıcının bu özelliği özelliklerde',
  description: 'Satıcının açıklamasının bu kısmı meta açıklamada',
}

/** One problem as a Turkish sentence for the model's second attempt. */
export function describeSeoProblem(problem: SeoProblem): string {
  switch (problem.kind) {
    case 'missing':
      return `${factNames[problem.fact]} aynen geçmeli: "${problem.expected}"`
    case 'contradicted':
      return `Satıcının verdiği renk "${problem.expected}"; "${problem.found}" rengini hiçbir yerde kullanma`
    case 'keyword':
      return problem.problem === 'separator'
        ? `Anahtar kelimede virgül ya da noktalı virgül olmamalı: "${problem.keyword}"`
        : `Anahtar kelime kategori yolu olmamalı: "${problem.keyword}"`
    case 'promotional':
      return `Tanıtım ifadesi kullanma: "${problem.phrase}"`
  }
}
