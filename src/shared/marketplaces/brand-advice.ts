import type { Advice } from './types.ts'

/**
 * "The title names the brand": none of the sources in marketplaces.md publishes this as a rule,
 * but buyers search by brand and every marketplace here has a brand field, so Vitrin advises it
 * (a warning at most) on the marketplace profiles. Instagram captions are not titles, so it has none.
 */
export const brandInTitleAdvice: Advice<true> = {
  value: true,
  source: {
    vitrin: true,
    note: 'Vitrin advice: buyers search by brand; no marketplace source makes it a rule',
  },
}
