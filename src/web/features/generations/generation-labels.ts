import type { GenerationView } from '#shared/contracts/generations.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { formatDateTime } from '#web/lib/format-time.ts'
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

/** What a screen reader calls one generation (its open link, its delete button, its dialog). */
export function itemLabel(t: I18n['t'], locale: Locale, generation: GenerationView): string {
  return t('studio.library.itemLabel', {
    type: typeLabel(t, generation),
    date: formatDateTime(locale, generation.createdAt),
  })
}
