import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { translateIn } from '#shared/i18n/locales/all.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { ogImagePath, publicPaths } from '#shared/public-pages.ts'
import { renderOgImage } from './og-image.ts'

/**
 * Writes each public page's 1200×630 preview image (Open Graph and Twitter cards) in each
 * language under `<webDist>/og/`, with the page's headline in that language.
 */
export async function renderPreviewImages(webDist: string): Promise<number> {
  rmSync(join(webDist, 'og'), { recursive: true, force: true })
  let images = 0
  for (const { page, locale } of publicPaths()) {
    const t = (key: TKey) => translateIn(locale, key)
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
