import type { GenerationView } from '#shared/contracts/generations.ts'
import { intlTag, type Locale } from '#shared/i18n/locales.ts'
import type { I18n } from '#web/lib/i18n.tsx'

const modeKeys = {
  image: 'studio.library.modeImage',
  video: 'studio.library.modeVideo',
  seo: 'studio.library.modeSeo',
} as const

/** "Image", "Video", "SEO content", with the tool when it is not the default: "Image · Fashion". */
export function typeLabel(t: I18n['t'], generation: GenerationView): string {
  const type = t(modeKeys[generation.mode])
  return generation.tool === 'fashion'
    ? t('studio.library.withTool', { type, tool: t('studio.library.toolFashion') })
    : type
}

/**
 * Date and time, short: "Jun 3, 2026, 2:05 PM" / "3 Haz 2026 14:05". The time tells apart the
 * several things a seller makes in one day.
 */
export function formatDateTime(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(intlTag[locale], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  )
}

/** What a screen reader calls one generation (its open link, its delete button, its dialog). */
export function itemLabel(t: I18n['t'], locale: Locale, generation: GenerationView): string {
  return t('studio.library.itemLabel', {
    type: typeLabel(t, generation),
    date: formatDateTime(locale, generation.createdAt),
  })
}
