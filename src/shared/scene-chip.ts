import type { Locale } from '#shared/i18n/locales.ts'

/**
 * What a suggestion chip writes into the prompt box: its label, in lower case, in the seller's
 * language ("mermer tezgâh" for a Turkish seller). The web passes the label it already has, so a
 * screen with chips needs no second language's messages (scene-prompts.ts has the server's side).
 */
export function chipTextOf(label: string, locale: Locale): string {
  return label.toLocaleLowerCase(locale === 'tr' ? 'tr-TR' : 'en-US')
}
