import { writeOfflineSeo } from '#server/providers/offline-studio/seo-writer/writer.ts'
import type { ProductDetails, SeoContent } from '#shared/seo.ts'
import { factViolations } from '#shared/seo-facts.ts'
import { seoEvaluationSet } from '#tests/support/seo-evaluation-set.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'

// `npx tsx bench/seo-writer.ts`: the offline SEO writer against its budgets. Copy for a 1,000-row
// catalogue (the evaluation set cycled, each row's name varied as a catalogue's variants are) must
// take at most 5 s in total; over the evaluation set every seller fact is kept (100 %) and no
// sentence the writer wrote appears for two products of different categories (0).

const rows = 1000
const variants = [
  '',
  'Yeni Model',
  'Büyük Boy',
  'Küçük Boy',
  'Set',
  'Mini',
  'Klasik',
  'Desenli',
  'Düz',
  'Çizgili',
]

function catalogueRow(i: number): { details: ProductDetails; photoColour: string } {
  const product = seoEvaluationSet[i % seoEvaluationSet.length]
  if (!product) throw new Error('empty evaluation set')
  const round = Math.floor(i / seoEvaluationSet.length)
  const variant = variants[round % variants.length]
  const name = product.details.name
  return {
    details: { ...product.details, name: name && variant ? `${variant} ${name}` : name },
    photoColour: product.photoColour,
  }
}

const load = machineLoad()
const started = performance.now()
let written = 0
for (let i = 0; i < rows; i++) {
  const row = catalogueRow(i)
  writeOfflineSeo(row.details, row.photoColour)
  written++
}
const totalMs = performance.now() - started

// The evaluation figures, over the set itself.
const lower = (text: string) => text.toLocaleLowerCase('tr-TR')
let kept = 0
const owner = new Map<string, string>()
const repeated = new Set<string>()
for (const product of seoEvaluationSet) {
  const { content } = writeOfflineSeo(product.details, product.photoColour)
  if (factViolations(content, product.details).length === 0) kept++
  for (const sentence of writtenSentences(content, product.details)) {
    const first = owner.get(sentence)
    if (first !== undefined && first !== product.category) repeated.add(sentence)
    owner.set(sentence, product.category)
  }
}

/** Sentences and feature lines the writer wrote (not the seller's text or its "Renk: …" facts). */
function writtenSentences(content: SeoContent, details: ProductDetails): string[] {
  const given = [details.description, ...(details.features ?? [])]
    .filter((t): t is string => Boolean(t))
    .map(lower)
  return [...content.description.split(/(?<=[.!?])\s+/), ...content.features]
    .map((line) => lower(line.trim()))
    .filter((line) => line && !given.some((text) => text.includes(line) || line.includes(text)))
    .filter((line) => !/^(?:renk|malzeme|marka): /.test(line))
}

const figures: Figure[] = [
  load,
  { name: `offline copy for a ${written}-row catalogue: total`, value: totalMs, unit: 'ms', budget: 5000 },
  { name: 'offline copy: per row', value: totalMs / written, unit: 'ms', digits: 2 },
  {
    name: `evaluation set (${seoEvaluationSet.length} products): facts kept`,
    value: (kept / seoEvaluationSet.length) * 100,
    unit: '%',
    atLeast: 100,
  },
  { name: 'evaluation set: repeated cross-category sentences', value: repeated.size, unit: '', budget: 0 },
]
const ok = printFigures('Offline Turkish SEO writer', figures)
process.exit(ok ? 0 : 1)
