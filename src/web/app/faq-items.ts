/** The FAQ page's questions, in order: the page and its FAQPage structured data (page-head.ts) share them. */
export type FaqItemId =
  | 'photos'
  | 'formats'
  | 'failed'
  | 'commercial'
  | 'quota'
  | 'seo'
  | 'plan'
  | 'byok'
  | 'training'
  | 'languages'

export const faqGroups: { id: 'results' | 'plans' | 'data'; items: FaqItemId[] }[] = [
  { id: 'results', items: ['photos', 'formats', 'failed', 'commercial'] },
  { id: 'plans', items: ['quota', 'seo', 'plan', 'byok'] },
  { id: 'data', items: ['training', 'languages'] },
]
