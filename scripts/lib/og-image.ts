import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { ReactElement } from 'react'
import satori from 'satori'
import sharp from 'sharp'

export type OgImageInput = { locale: 'en' | 'tr'; headline: string; tagline: string; label: string }

type FontOptions = Parameters<typeof satori>[1]['fonts'][number]
type Weight = 400 | 600 | 700
// satori reads React-element-like objects; plain objects keep this a .ts file without JSX.
type Node = ReactElement<{ style: Record<string, unknown>; children?: unknown }, string>

const width = 1200
const height = 630
const padX = 80
const padY = 64
const contentWidth = width - 2 * padX

// Brand colours from src/web/index.css (brand-200/700/900/950, accent-400/500).
const colors = {
  bg950: '#1e1b4b',
  bg900: '#312e81',
  bg700: '#4338ca',
  text: '#ffffff',
  tagline: '#c7d2fe',
  accent: '#fbbf24',
  accent500: '#f59e0b',
}

// Largest first: the first size at which the headline takes at most three lines and at most
// headlineMaxHeight wins, so a short headline is big and a long one still leaves room for the tagline.
const headlineSizes = [76, 68, 62, 56, 50, 46] as const
const headlineLineHeight = 1.12
const maxHeadlineLines = 3
const headlineMaxHeight = 212

/*
 * Satori draws glyphs only from the fonts it is given (no system fonts). For a missing glyph it
 * tries the other fonts, but only those under a different name: files sharing one name count as one
 * family, and the latin file alone draws its .notdef box for Ğ ğ İ Ş ş. So the latin-ext file is
 * loaded as a family of its own and listed after Inter.
 */
const families = { latin: 'Inter', latinExt: 'Inter Latin Ext' } as const
const fontFamily = `${families.latin}, ${families.latinExt}`
const weights: Weight[] = [400, 600, 700]

let fontsOnce: FontOptions[] | undefined

function loadFonts(): FontOptions[] {
  if (fontsOnce) return fontsOnce
  const require = createRequire(import.meta.url)
  const file = (subset: 'latin' | 'latin-ext', weight: Weight) =>
    readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`))
  fontsOnce = weights.flatMap((weight) => [
    { name: families.latin, data: file('latin', weight), weight, style: 'normal' as const },
    { name: families.latinExt, data: file('latin-ext', weight), weight, style: 'normal' as const },
  ])
  return fontsOnce
}

function el(type: string, style: Record<string, unknown>, children?: unknown, extra?: object): Node {
  return { type, key: null, props: { style, children, ...extra } }
}

// The Vitrin mark from src/web/components/layout/logo.tsx; the thin ring keeps its indigo square
// visible on the indigo background.
const markSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="0.5" y="0.5" width="31" height="31" rx="7" fill="#312e81" stroke="#6366f1" stroke-width="1"/><path d="M8 9h4.2l3.8 11 3.8-11H24l-6 15h-4z" fill="#fbbf24"/></svg>`
const markUri = `data:image/svg+xml;base64,${Buffer.from(markSvg).toString('base64')}`
const watermarkSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="6 7 20 19"><path d="M8 9h4.2l3.8 11 3.8-11H24l-6 15h-4z" fill="#ffffff" fill-opacity="0.05"/></svg>`
const watermarkUri = `data:image/svg+xml;base64,${Buffer.from(watermarkSvg).toString('base64')}`

function headlineNode(headline: string, fontSize: number, isClamped: boolean): Node {
  return el(
    'div',
    {
      display: isClamped ? 'block' : 'flex',
      ...(isClamped ? { lineClamp: maxHeadlineLines } : {}),
      width: contentWidth,
      fontFamily,
      fontSize,
      fontWeight: 700,
      lineHeight: headlineLineHeight,
      letterSpacing: -fontSize * 0.02,
      color: colors.text,
      // Even lines read better than a long line over a one-word one; balancing shrinks a clamped
      // block to a narrow column in satori, so only an unclamped headline is balanced.
      ...(isClamped ? {} : { textWrap: 'balance' }),
      wordBreak: 'break-word',
    },
    headline,
  )
}

/** The largest headline size that fits in three lines, measured by laying the headline out alone. */
async function fitHeadline(headline: string): Promise<{ fontSize: number; isClamped: boolean }> {
  for (const fontSize of headlineSizes) {
    const svg = await satori(headlineNode(headline, fontSize, false), {
      width: contentWidth,
      fonts: loadFonts(),
    })
    const laidOut = Number(/<svg[^>]*\bheight="([\d.]+)"/.exec(svg)?.[1] ?? Number.POSITIVE_INFINITY)
    const lines = Math.round(laidOut / (fontSize * headlineLineHeight))
    if (lines <= maxHeadlineLines && laidOut <= headlineMaxHeight) return { fontSize, isClamped: false }
  }
  // Longer than any page headline should be: the smallest size, cut to three lines with an ellipsis.
  return { fontSize: headlineSizes[headlineSizes.length - 1] as number, isClamped: true }
}

function imageTree(input: OgImageInput, fit: { fontSize: number; isClamped: boolean }): Node {
  const brand = el('div', { display: 'flex', alignItems: 'center', gap: 18 }, [
    el('img', { width: 60, height: 60 }, undefined, { src: markUri, width: 60, height: 60 }),
    el('div', { fontSize: 40, fontWeight: 700, color: colors.text, letterSpacing: -0.8 }, 'Vitrin'),
  ])
  const label = el(
    'div',
    {
      display: 'block',
      lineClamp: 1,
      width: contentWidth,
      fontSize: 24,
      fontWeight: 600,
      color: colors.accent,
      letterSpacing: 3,
      marginBottom: 18,
    },
    // Locale-aware: Turkish "i" becomes "İ" (Fiyatlar → FİYATLAR), not "I".
    input.label.toLocaleUpperCase(input.locale),
  )
  const tagline = el(
    'div',
    {
      display: 'block',
      lineClamp: 2,
      width: contentWidth,
      marginTop: 24,
      fontSize: 27,
      fontWeight: 400,
      lineHeight: 1.35,
      color: colors.tagline,
    },
    input.tagline,
  )
  const text = el(
    'div',
    { display: 'flex', flexDirection: 'column', flexGrow: 1, justifyContent: 'center' },
    [label, headlineNode(input.headline, fit.fontSize, fit.isClamped), tagline],
  )
  // The mark's V, large and faint at the right: flat shapes keep the PNG small, unlike a radial glow.
  const watermark = el(
    'img',
    { position: 'absolute', right: -40, top: 40, width: 560, height: 560 },
    undefined,
    {
      src: watermarkUri,
      width: 560,
      height: 560,
    },
  )
  const rule = el('div', {
    position: 'absolute',
    left: 0,
    bottom: 0,
    width,
    height: 8,
    backgroundImage: `linear-gradient(90deg, ${colors.accent} 0%, ${colors.accent500} 100%)`,
  })
  return el(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      position: 'relative',
      // Satori sizes boxes without their padding by default; the frame must be exactly 1200×630.
      boxSizing: 'border-box',
      width,
      height,
      padding: `${padY}px ${padX}px`,
      fontFamily,
      backgroundColor: colors.bg950,
      backgroundImage: `linear-gradient(135deg, ${colors.bg950} 0%, ${colors.bg900} 55%, ${colors.bg700} 100%)`,
    },
    [watermark, brand, text, rule],
  )
}

/** A 1200×630 PNG. */
export async function renderOgImage(input: OgImageInput): Promise<Buffer> {
  const fit = await fitHeadline(input.headline)
  const svg = await satori(imageTree(input, fit), { width, height, fonts: loadFonts() })
  // Lossless: a 256-colour palette dithers the dark gradient into grey blotches, and with only
  // linear gradients and flat shapes the full-colour PNG stays around 50–100 KB anyway.
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer()
}
