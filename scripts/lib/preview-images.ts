import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { enMessages } from '#shared/i18n/locales/en/index.ts'
import { trMessages } from '#shared/i18n/locales/tr/index.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import type { AppMessages, TKey } from '#shared/i18n/messages.ts'
import { type Messages, translate } from '#shared/i18n/translate.ts'
import { ogImagePath, publicPaths } from '#shared/public-pages.ts'
import { renderOgImage } from './og-image.ts'

const messagesOf: Record<Locale, AppMessages> = { en: enMessages, tr: trMessages }

/**
 * Writes each public page's 1200×630 preview image (Open Graph and Twitter cards) in each
 * language under `<webDist>/og/`, with the page's headline in that language.
 */
export async function renderPreviewImages(webDist: string): Promise<number> {
  rmSync(join(webDist, 'og'), { recursive: true, force: true })
  let images = 0
  for (const { page, locale } of publicPaths()) {
    const t = (key: TKey) => translate(messagesOf[locale] as unknown as Messages, locale, key)
    const image = await renderOgImage({
      locale,
      label: t(`seo.${page.key}.label`),
      headline: t(`seo.${page.key}.headline`),
      tagline: t('seo.site.tagline'),
    })
    const file = join(webDist, ogImagePath(locale, page.key))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, image)
    images += 1
  }
  return images
}
