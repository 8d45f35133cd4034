import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { type OgImageInput, renderOgImage } from './og-image.ts'

const en: OgImageInput = {
  locale: 'en',
  label: 'Pricing',
  headline: 'Plans for every shop',
  tagline: 'Product images, videos and Turkish SEO copy from one photo, for online sellers.',
}
const tr: OgImageInput = {
  locale: 'tr',
  label: 'Fiyatlar',
  headline: 'Her mağazaya bir plan',
  tagline: 'Online satıcılar için tek fotoğraftan ürün görselleri, videolar ve Türkçe SEO metni.',
}

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

type Pixels = Awaited<ReturnType<typeof pixels>>
type Rect = { x: number; y: number; w: number; h: number }

// The headline (and the word "Vitrin") is the only white: the background is indigo, the label
// amber and the tagline pale indigo. Antialiased edges fall below the bar; glyph cores do not.
function isWhite(image: Pixels, index: number): boolean {
  const [r = 0, g = 0, b = 0] = image.data.subarray(index * 3, index * 3 + 3)
  return Math.min(r, g, b) > 220
}

/** Pixels that are white in `a` but not in `b`. */
function whiteOnlyIn(a: Pixels, b: Pixels): number {
  let count = 0
  for (let i = 0; i < a.width * a.height; i++) if (isWhite(a, i) && !isWhite(b, i)) count++
  return count
}

function whiteIn(image: Pixels, rect: Rect): number {
  let count = 0
  for (let y = rect.y; y < rect.y + rect.h; y++) {
    for (let x = rect.x; x < rect.x + rect.w; x++) if (isWhite(image, y * image.width + x)) count++
  }
  return count
}

describe('renderOgImage', () => {
  it('renders a 1200×630 PNG', async () => {
    const meta = await sharp(await renderOgImage(en)).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630])
  })

  it('draws every Turkish letter, not the missing-glyph box', async () => {
    // Each accented letter is its base letter plus a mark at the same advance width: drawn right,
    // the accented headline keeps the base headline's ink and adds the marks (ı is i without its
    // dot, so it sits on the base side). A missing glyph (İ Ğ Ş are only in Inter's latin-ext
    // file) is drawn as a box instead, which loses most of the base letter's ink.
    const accented = await pixels(await renderOgImage({ ...tr, headline: 'İ Ğ Ş i ç ö ü' }))
    const base = await pixels(await renderOgImage({ ...tr, headline: 'I G S ı c o u' }))
    const marks = whiteOnlyIn(accented, base)
    const lost = whiteOnlyIn(base, accented)
    expect(marks).toBeGreaterThan(300)
    expect(lost).toBeLessThan(marks / 3)
  })

  it('keeps a long headline inside the margins', async () => {
    const headlines = [
      // About as long as a page headline gets: three lines at a smaller size.
      'Plans for every shop, from the very first listing to a full catalogue of thousands of products',
      // Far longer than any should be, with a word too long for a line: cut to three lines.
      `${'Çekoslovakyalılaştıramadıklarımızdanmışsınızcasına '.repeat(2)}${'word '.repeat(60)}`,
    ]
    for (const headline of headlines) {
      const png = await renderOgImage({ ...en, headline })
      // Small enough for the link previews that fetch it (sites and chat apps cap the size).
      expect(png.length).toBeLessThan(150 * 1024)
      const image = await pixels(png)
      // No headline pixel in the 64 px along each edge of the frame.
      const margins = {
        top: whiteIn(image, { x: 0, y: 0, w: 1200, h: 64 }),
        bottom: whiteIn(image, { x: 0, y: 630 - 64, w: 1200, h: 64 }),
        left: whiteIn(image, { x: 0, y: 0, w: 64, h: 630 }),
        right: whiteIn(image, { x: 1200 - 64, y: 0, w: 64, h: 630 }),
      }
      expect(margins).toEqual({ top: 0, bottom: 0, left: 0, right: 0 })
    }
  })

  it('shows the headline it is given', async () => {
    const [one, other] = await Promise.all([
      renderOgImage(en),
      renderOgImage({ ...en, headline: 'Everything Vitrin makes from one photo' }),
    ])
    expect(one.equals(other)).toBe(false)
    const a = await pixels(one)
    const b = await pixels(other)
    expect(whiteOnlyIn(a, b) + whiteOnlyIn(b, a)).toBeGreaterThan(1000)
  })
})
