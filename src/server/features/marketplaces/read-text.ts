import { access, mkdtemp, rm, symlink } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker as NodeWorker } from 'node:worker_threads'
import sharp from 'sharp'
import type { Worker as TesseractWorker } from 'tesseract.js'
import { workerEntry } from '#server/runtime-files.ts'

// Text and watermarks on an image, for the checker's "no text on the image" rule
// (facts.text; docs/decisions/0027-ocr-with-packaged-tesseract.md). tesseract.js runs Tesseract
// (WebAssembly) on a thread of its own; the English and Turkish models come from the installed
// @tesseract.js-data packages and nothing is ever downloaded (ocr-worker.ts refuses to fetch).
// One worker per reader, started on first use, one image at a time, stopped when idle or closed.

/** Languages read, main first: Turkish text and English promo words ("SALE", "%50") both read exactly. */
export const ocrLanguages = ['eng', 'tur'] as const

/**
 * Pixels the image is read at (1200 × 1200): a 1080–1200 px result as it is, a 1200×1800 one at
 * about 0.8. Text 24 px high on a 1200 px result is still read; more pixels only cost time.
 */
export const ocrMaxPixels = 1200 * 1200

/**
 * Which words count. Calibrated on 58 clean images (the two real photos, every offline-studio
 * scene for four inputs, the fashion styles, the test photos: no word of ≥ 2 letters or digits
 * above 62) and on promo overlays and watermarks over those scenes (words read at 85–96, a
 * trailing "%50" at 81–85).
 */
export const wordFilter = {
  minConfidence: 80,
  /** Letters or digits in the word: single characters are what edges and textures read as. */
  minCharacters: 2,
  /** Words kept in the facts (the checker shows the first five). */
  maxWords: 20,
} as const

/** The light-text pass: the blur the local background is taken with, and how much its difference is amplified. */
export const lightTextPass = { sigma: 8, gain: 3 } as const

/**
 * An idle worker is stopped after this long (it holds about 110 MB); the next read starts it
 * again. A minute, as the segmentation model's process: a quiet server is back to its idle
 * memory a minute after its last image's check.
 */
export const ocrIdleMs = 60_000

export type OcrWord = { text: string; confidence: number }

export interface TextReader {
  /**
   * The words on the image read with enough confidence (an empty list for a clean photo), or
   * null when OCR cannot run: the worker could not start (logged once), or this image could not
   * be read (logged). Never throws.
   */
  read(bytes: Buffer): Promise<string[] | null>
  /** Stops the worker; a later read starts it again. */
  close(): Promise<void>
}

export type TextReaderOptions = {
  /** Where failures are told (the app's logger). */
  log: { warn(context: object, message: string): void }
  /** The language files (gzipped .traineddata) by language; the installed packages' by default. */
  languageFiles?: Record<string, string>
  /** Tests only: where tesseract.js would look when a language file cannot be read (never used otherwise). */
  fallbackLangPath?: string
  idleMs?: number
}

const require = createRequire(import.meta.url)
const workerPath = fileURLToPath(workerEntry(new URL('./ocr-worker.ts', import.meta.url)))

/**
 * The installed language files: `<package>/4.0.0_best_int/<lang>.traineddata.gz`, the integer
 * ("best_int") LSTM models tesseract.js itself defaults to, smaller and faster than "best".
 */
export function packagedLanguageFiles(): Record<string, string> {
  return Object.fromEntries(
    ocrLanguages.map((lang) => {
      const root = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`))
      return [lang, join(root, '4.0.0_best_int', `${lang}.traineddata.gz`)]
    }),
  )
}

/** Letters and digits in a word. */
function characterCount(word: string): number {
  return word.match(/[\p{L}\p{N}]/gu)?.length ?? 0
}

/**
 * The words worth reporting, in reading order, each once: confident enough, at least two letters
 * or digits, not one character repeated ("HH", "III": what brick and fabric read as), with
 * punctuation trimmed from the ends (a "%" stays: "%50").
 */
export function reportedWords(words: readonly OcrWord[]): string[] {
  const seen = new Set<string>()
  const kept: string[] = []
  for (const word of words) {
    if (word.confidence < wordFilter.minConfidence) continue
    const text = word.text.replace(/^[^\p{L}\p{N}%©]+|[^\p{L}\p{N}%]+$/gu, '')
    if (characterCount(text) < wordFilter.minCharacters) continue
    const letters = text.toLocaleLowerCase('tr').replace(/[^\p{L}\p{N}]/gu, '')
    if (/^(.)\1*$/u.test(letters)) continue
    const key = text.toLocaleLowerCase('tr')
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(text)
    if (kept.length === wordFilter.maxWords) break
  }
  return kept
}

/**
 * The two pictures Tesseract reads, greyscale at most ocrMaxPixels:
 * - the image itself, binarised by Tesseract with Sauvola's local threshold (dark or coloured
 *   text, and light text on a plain band);
 * - light text made dark: how far each pixel is brighter than its blurred surroundings. A white
 *   or half-transparent watermark over a mid-tone scene disappears in any global threshold
 *   (it falls on the same side as the background); here it is the only dark thing left.
 */
export async function ocrPasses(bytes: Buffer): Promise<{ plain: Buffer; lightText: Buffer }> {
  const metadata = await sharp(bytes).metadata()
  const pixels = (metadata.width ?? 1) * (metadata.height ?? 1)
  const scale = Math.min(1, Math.sqrt(ocrMaxPixels / pixels))
  const grey = await sharp(bytes)
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(scale < 1 ? { width: Math.max(1, Math.round((metadata.width ?? 1) * scale)) } : undefined)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { width, height } = grey.info
  const raw = { raw: { width, height, channels: 1 as const } }
  const background = await sharp(grey.data, raw)
    .blur(lightTextPass.sigma)
    .toColourspace('b-w')
    .raw()
    .toBuffer()
  const light = Buffer.alloc(width * height)
  for (let i = 0; i < light.length; i++) {
    const brighter = (grey.data[i] as number) - (background[i] as number)
    light[i] = 255 - Math.min(255, Math.max(0, brighter) * lightTextPass.gain)
  }
  const png = (data: Buffer) => sharp(data, raw).png({ compressionLevel: 1 }).toBuffer()
  const [plain, lightText] = await Promise.all([png(grey.data), png(light)])
  return { plain, lightText }
}

/**
 * Tesseract's words on one picture, with its confidence (0–100), from its TSV output: a line of
 * text per word. (Its JSON "blocks" carry every character's box and alternatives, several MB of
 * objects per image built in the OCR thread and copied to this one, only to be thrown away.)
 */
async function wordsOn(worker: TesseractWorker, image: Buffer): Promise<OcrWord[]> {
  const { data } = await worker.recognize(image, {}, { tsv: true, text: false })
  return wordsFromTsv(data.tsv ?? '')
}

/**
 * The words of Tesseract's TSV (level, page, block, paragraph, line, word, left, top, width,
 * height, confidence, text; tab-separated): the rows of level 5, one per word, in reading order.
 */
export function wordsFromTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = []
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t')
    if (cells[0] !== '5' || cells.length < 12) continue
    const text = cells.slice(11).join('\t').trim()
    const confidence = Number(cells[10])
    if (text === '' || !Number.isFinite(confidence)) continue
    words.push({ text, confidence })
  }
  return words
}

/** A started worker, its thread, and the folder its language files are linked from. */
type Started = {
  worker: TesseractWorker
  /** The worker_threads Worker under it (tesseract.js keeps it as `worker`; absent if that changes). */
  thread: NodeWorker | null
  /** Rejects when the thread ends or fails: a read in flight then stops waiting. */
  died: Promise<never>
  cacheDir: string
}

/** The longest a start (≈ 0.3–1 s) or one image's read (≈ 0.1–0.6 s) may take before it counts as failed. */
export const ocrTimeoutMs = 30_000

function timeout(ms: number, what: string): { promise: Promise<never>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)
    timer.unref()
  })
  promise.catch(() => {})
  return { promise, cancel: () => clearTimeout(timer) }
}

/**
 * tesseract.js takes one `langPath` per worker, but each language ships in a package of its own,
 * and its `{ code, data }` form is broken in 7.0.0 (the data is used as the language's name). Its
 * cache folder, read-only, is the way in: a private folder with `<lang>.traineddata` linked to
 * each package's file (gzipped; tesseract.js unzips by the magic bytes). Nothing is copied.
 */
async function startWorker(options: TextReaderOptions): Promise<Started> {
  const files = options.languageFiles ?? packagedLanguageFiles()
  for (const file of Object.values(files)) await access(file)
  const cacheDir = await mkdtemp(join(tmpdir(), 'vitrin-ocr-'))
  // A failed step reaches only `errorHandler`: createWorker's own promise would never settle.
  let failStart: (error: Error) => void = () => {}
  const startFailed = new Promise<never>((_, reject) => {
    failStart = reject
  })
  startFailed.catch(() => {})
  const limit = timeout(ocrTimeoutMs, 'starting OCR')
  try {
    // With the first read: tesseract.js is not needed to start the server.
    const { createWorker, PSM } = await import('tesseract.js')
    for (const [lang, file] of Object.entries(files)) {
      await symlink(file, join(cacheDir, `${lang}.traineddata`))
    }
    const creating = createWorker(Object.keys(files).join('+'), 1, {
      workerPath,
      cachePath: cacheDir,
      cacheMethod: 'readOnly',
      // Only read when a linked file cannot be: a local folder, so never the CDN default.
      langPath: options.fallbackLangPath ?? dirname(Object.values(files)[0] ?? cacheDir),
      gzip: true,
      logger: () => {},
      // Without one, tesseract.js throws a failed step from its message handler (the process's end).
      errorHandler: (data: unknown) => failStart(new Error(`tesseract.js: ${String(data)}`)),
    })
    const worker = await Promise.race([creating, startFailed, limit.promise])
    await worker.setParameters({
      tessedit_pageseg_mode: PSM.AUTO,
      // Tesseract's own chatter ("Image too small to scale!!") goes nowhere.
      debug_file: '/dev/null',
    })
    const underlying = (worker as unknown as { worker?: unknown }).worker
    const thread = underlying instanceof NodeWorker ? underlying : null
    const died = new Promise<never>((_, reject) => {
      thread?.once('error', (error) => reject(error))
      thread?.once('exit', (code) => reject(new Error(`the OCR thread stopped (exit code ${code})`)))
    })
    died.catch(() => {})
    // Idle, it does not keep the process alive; a read refs it (as segmentation's thread does).
    thread?.unref()
    return { worker, thread, died, cacheDir }
  } catch (error) {
    await rm(cacheDir, { recursive: true, force: true })
    throw error
  } finally {
    limit.cancel()
  }
}

export function createTextReader(options: TextReaderOptions): TextReader {
  const idleMs = options.idleMs ?? ocrIdleMs
  let started: Promise<Started> | null = null
  /** Set when the worker could not start: files missing or broken; logged once, not retried. */
  let startFailure: unknown = null
  /** Reads run one after another on the one worker. */
  let queue: Promise<unknown> = Promise.resolve()
  let idleTimer: NodeJS.Timeout | null = null

  const stop = async () => {
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = null
    const stopping = started
    started = null
    const running = await stopping?.catch(() => null)
    if (!running) return
    await running.worker.terminate().catch(() => {})
    await rm(running.cacheDir, { recursive: true, force: true })
  }

  const readOne = async (bytes: Buffer): Promise<string[] | null> => {
    if (startFailure) return null
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = null
    let passes: Awaited<ReturnType<typeof ocrPasses>>
    try {
      passes = await ocrPasses(bytes)
    } catch (error) {
      options.log.warn(
        { err: error },
        'OCR: the image could not be decoded; the text rule reads "check by eye"',
      )
      return null
    }
    if (!started) started = startWorker(options)
    let running: Started
    try {
      running = await started
    } catch (error) {
      started = null
      startFailure = error
      options.log.warn(
        { err: error, languageFiles: options.languageFiles ?? packagedLanguageFiles() },
        'OCR could not start; the text-on-image rule reads "check by eye" until the server restarts',
      )
      return null
    }
    const limit = timeout(ocrTimeoutMs, 'reading text')
    running.thread?.ref()
    try {
      const { worker } = running
      const settle = <T>(work: Promise<T>) => Promise.race([work, running.died, limit.promise])
      // Each pass with its own threshold (see ocrPasses); the second only when the first found nothing.
      await settle(worker.setParameters({ thresholding_method: '2' }))
      const words = reportedWords(await settle(wordsOn(worker, passes.plain)))
      if (words.length > 0) return words
      await settle(worker.setParameters({ thresholding_method: '0' }))
      return reportedWords(await settle(wordsOn(worker, passes.lightText)))
    } catch (error) {
      options.log.warn({ err: error }, 'OCR failed on an image; the worker is restarted for the next one')
      await stop()
      return null
    } finally {
      limit.cancel()
      running.thread?.unref()
      // (stop() above may have ended it; TypeScript cannot see that through the closure.)
      if ((started as Promise<Started> | null) !== null && idleMs > 0) {
        // Stopped in turn, after any read queued by then.
        idleTimer = setTimeout(() => {
          queue = queue.then(stop)
        }, idleMs)
        idleTimer.unref()
      }
    }
  }

  return {
    read(bytes) {
      const reading = queue.then(() => readOne(bytes))
      queue = reading.catch(() => null)
      return reading
    },
    async close() {
      queue = queue.then(stop)
      await queue
    },
  }
}
