import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import {
  createTextReader,
  packagedLanguageFiles,
  reportedWords,
  wordFilter,
  wordsFromTsv,
} from './read-text.ts'

// OCR for the text-on-image rule, with the real tesseract.js and the installed language data, on
// pictures drawn here: promo text and watermarks over a product scene must be read, the two real
// photos must give no words, and the reader must never reach the network.

// These tests never touch the database: the PostgreSQL run of the server suite skips them.
const isPostgresRun = process.env.VITRIN_TEST_ENGINE === 'postgres'

const photos = new URL('../../../../tests/fixtures/photos/', import.meta.url)

/** A 1200×1200 product scene (a brown "product" on a backdrop) with SVG text over it. */
function scene(
  text: string,
  options: { x: number; y: number; size: number; fill: string; backdrop: string },
) {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200">
    <rect width="1200" height="1200" fill="${options.backdrop}"/>
    <circle cx="600" cy="650" r="300" fill="#6b3209"/>
    <text x="${options.x}" y="${options.y}" font-family="DejaVu Sans" font-weight="bold"
      font-size="${options.size}" fill="${options.fill}">${escaped}</text>
  </svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer()
}

/** Pixels in a box that differ from the backdrop: the text was drawn (a font was found). */
async function drawnPixels(bytes: Buffer, box: { left: number; top: number; width: number; height: number }) {
  const { data } = await sharp(bytes).extract(box).greyscale().raw().toBuffer({ resolveWithObject: true })
  const backdrop = data[0] as number
  return data.filter((value) => Math.abs(value - backdrop) > 40).length
}

const quiet = () => {
  const warnings: { context: unknown; message: string }[] = []
  return {
    warnings,
    log: { warn: (context: unknown, message: string) => warnings.push({ context, message }) },
  }
}

describe('reportedWords', () => {
  it('keeps confident words of two letters or digits once, trimmed, and drops texture noise', () => {
    const words = [
      { text: 'BÜYÜK', confidence: 96 },
      { text: 'İNDİRİM,', confidence: 95 },
      { text: '%50', confidence: 81 },
      { text: 'indirim', confidence: 90 },
      { text: 'ÇAĞ', confidence: wordFilter.minConfidence - 1 },
      { text: 'N', confidence: 95 },
      { text: '|a', confidence: 95 },
      { text: 'HH', confidence: 90 },
      { text: 'www.dukkan.com', confidence: 90 },
    ]
    expect(reportedWords(words)).toEqual(['BÜYÜK', 'İNDİRİM', '%50', 'www.dukkan.com'])
  })
})

describe('wordsFromTsv', () => {
  it("takes each word's text and confidence from the rows of level 5, and nothing else", () => {
    const tsv = [
      '1\t1\t0\t0\t0\t0\t0\t0\t1200\t1200\t-1\t',
      '2\t1\t1\t0\t0\t0\t80\t90\t700\t120\t-1\t',
      '4\t1\t1\t1\t1\t0\t80\t90\t700\t120\t-1\t',
      '5\t1\t1\t1\t1\t1\t80\t90\t300\t120\t96.112\tBÜYÜK',
      '5\t1\t1\t1\t1\t2\t400\t90\t380\t120\t91.5\tİNDİRİM',
      '5\t1\t1\t1\t1\t3\t800\t90\t10\t120\t95\t ',
      '5\t1\t1\t1\t1\t4\t820\t90\t90\t120\t81\t%50',
      '',
    ].join('\n')
    expect(wordsFromTsv(tsv)).toEqual([
      { text: 'BÜYÜK', confidence: 96.112 },
      { text: 'İNDİRİM', confidence: 91.5 },
      { text: '%50', confidence: 81 },
    ])
    expect(wordsFromTsv('')).toEqual([])
  })
})

describe('the language data', () => {
  it('comes from the installed @tesseract.js-data packages, gzipped, English and Turkish', () => {
    const files = packagedLanguageFiles()
    expect(Object.keys(files)).toEqual(['eng', 'tur'])
    for (const [lang, file] of Object.entries(files)) {
      expect(file).toContain(`${sep}@tesseract.js-data${sep}${lang}${sep}4.0.0_best_int${sep}`)
      const head = readFileSync(file).subarray(0, 2)
      expect([...head]).toEqual([0x1f, 0x8b])
    }
  })
})

describe.skipIf(isPostgresRun)('reading text with tesseract.js', () => {
  const { log, warnings } = quiet()
  const reader = createTextReader({ log })
  afterAll(async () => {
    await reader.close()
  })

  it('reads Turkish promo text, letters with dots and cedillas included', async () => {
    const image = await scene('BÜYÜK İNDİRİM %50', {
      x: 100,
      y: 180,
      size: 80,
      fill: '#c00000',
      backdrop: '#e8e0d0',
    })
    expect(await drawnPixels(image, { left: 100, top: 100, width: 900, height: 100 })).toBeGreaterThan(2000)
    // "%50" is read too at 80–85, around the bar: only the words are required.
    expect((await reader.read(image))?.slice(0, 2)).toEqual(['BÜYÜK', 'İNDİRİM'])
  })

  it('reads English promo text', async () => {
    const image = await scene('SALE 50% OFF', {
      x: 100,
      y: 180,
      size: 80,
      fill: '#222222',
      backdrop: '#f4f1ec',
    })
    expect(await reader.read(image)).toEqual(['SALE', '50%', 'OFF'])
  })

  it('reads a white watermark in the corner of a mid-grey scene, which a global threshold loses', async () => {
    const image = await scene('© shopname', {
      x: 900,
      y: 1160,
      size: 36,
      fill: '#ffffff',
      backdrop: '#8090a0',
    })
    expect(await drawnPixels(image, { left: 900, top: 1120, width: 250, height: 50 })).toBeGreaterThan(500)
    expect(await reader.read(image)).toEqual(['shopname'])
  })

  it('finds no words on the two real photos', async () => {
    for (const name of ['coffee.png', 'rocket.jpg']) {
      expect(await reader.read(await readFile(new URL(name, photos)))).toEqual([])
    }
  })

  it('gives null for bytes that are no image, and reads on afterwards', async () => {
    expect(await reader.read(Buffer.from('not an image'))).toBeNull()
    const image = await scene('KARGO', { x: 100, y: 180, size: 80, fill: '#000000', backdrop: '#ffffff' })
    expect(await reader.read(image)).toEqual(['KARGO'])
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/could not be decoded/)])
  })
})

describe.skipIf(isPostgresRun)('when OCR cannot start', () => {
  const folders: string[] = []
  let server: Server | null = null
  afterAll(async () => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  })

  it('answers null and logs once, naming the language files, when they are missing', async () => {
    const { log, warnings } = quiet()
    const missing = join(tmpdir(), 'vitrin-no-such-folder', 'eng.traineddata.gz')
    const reader = createTextReader({ log, languageFiles: { eng: missing } })
    const image = await scene('SALE', { x: 100, y: 180, size: 80, fill: '#000000', backdrop: '#ffffff' })
    expect(await reader.read(image)).toBeNull()
    expect(await reader.read(image)).toBeNull()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.message).toMatch(/OCR could not start/)
    expect(warnings[0]?.context).toMatchObject({ languageFiles: { eng: missing } })
    await reader.close()
  })

  it('never downloads language data, even when its files cannot be read and a download address is given', async () => {
    let requests = 0
    server = createServer((_request, response) => {
      requests++
      response.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()))
    const { port } = server.address() as AddressInfo
    // A folder where a file should be: it exists, but tesseract.js cannot read it as language data.
    const folder = mkdtempSync(join(tmpdir(), 'vitrin-ocr-test-'))
    folders.push(folder)
    const { log, warnings } = quiet()
    const reader = createTextReader({
      log,
      languageFiles: { eng: folder },
      fallbackLangPath: `http://127.0.0.1:${port}/tessdata`,
    })
    const image = await scene('SALE', { x: 100, y: 180, size: 80, fill: '#000000', backdrop: '#ffffff' })
    expect(await reader.read(image)).toBeNull()
    expect(requests).toBe(0)
    expect(warnings).toHaveLength(1)
    const context = warnings[0]?.context as { err?: unknown } | undefined
    expect(String(context?.err)).toMatch(/must not reach the network/)
    await reader.close()
  })
})
