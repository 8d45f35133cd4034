import { execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import sharp from 'sharp'
import type { Db } from '#server/db/client.ts'
import {
  type ExportFile,
  type ExportPreset,
  type ExportProduct,
  writeCatalogueExport,
} from '#server/features/catalogue/export/catalogue-export.ts'
import { presetExporter } from '#server/features/marketplaces/marketplace-export.service.ts'
import { createInspections, createVideoSlots } from '#server/features/marketplaces/marketplaces.service.ts'
import { createLocalDiskStorage } from '#server/storage/local-disk.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'

// `npx tsx bench/catalogue-export.ts`: the catalogue's export ZIP against its budget (issue 13):
// 500 products, each a ~300 KB image and a ~1 MB video in local storage, streamed to an output
// that throws the bytes away; the export may add at most 100 MB to the process's peak memory.
// The export runs in a child process, after a small warm-up export (so loading exceljs and
// zip-stream is not counted); the peak is reset there (Linux /proc/self/clear_refs) and read
// back afterwards (VmHWM), so a spike between samples is counted too.
//
// `--preset`: the same for a batch with Trendyol's preset, where every image is re-rendered to
// 1200×1800 and every video probed (and lengthened when short) one file at a time. The files are
// then real: a 1080×1080 JPEG of noise (~300 KB after encoding at a matching quality) and a
// 9 s clip (past the 8 s floor, so it is probed and kept: lengthening is video.test.ts's concern).

const productCount = 500
const imageBytes = 300 * 1024
const videoBytes = 1024 * 1024
const budgetMb = 100

/** The products of the bench, made as a caller reading pages from the database would: one at a time. */
async function* products(count: number): AsyncGenerator<ExportProduct> {
  for (let i = 0; i < count; i++) {
    const sku = `TRD-${String(i + 1).padStart(4, '0')}`
    const files: ExportFile[] = [
      { assetId: `${sku}-img`, kind: 'image', mime: 'image/jpeg', storageKey: `bench/${sku}.jpg` },
      { assetId: `${sku}-vid`, kind: 'video', mime: 'video/mp4', storageKey: `bench/${sku}.mp4` },
    ]
    yield {
      line: i + 2,
      sku,
      name: `İpek Eşarp ${i + 1}`,
      cells: [
        sku,
        `İpek Eşarp ${i + 1}`,
        'Işıklı Tekstil',
        'Eşarp & Şal',
        'Yumuşak; şık bir eşarp.\nİkinci satır.',
      ],
      files,
      seo: {
        title: `İpek Eşarp ${i + 1} — Kırmızı, El Yapımı`,
        description: 'Yumuşak dokulu, hafif ve şık ipek eşarp; her mevsim kullanıma uygun. '.repeat(2),
        features: ['%100 ipek', 'El yapımı', '90×90 cm', 'Kuru temizleme'],
        keywords: ['eşarp', 'ipek eşarp', 'şal', 'kırmızı eşarp', 'hediye'],
      },
    }
  }
}

const headers = ['Stok Kodu', 'Ürün Adı', 'Marka', 'Kategori', 'Açıklama']

/** An output that takes every byte at once and keeps none: the export's own memory is what shows. */
function discard(): { out: Writable; bytes: () => number } {
  let total = 0
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      total += chunk.length
      callback()
    },
  })
  return { out, bytes: () => total }
}

async function memoryMb(): Promise<{ peak: number; now: number }> {
  const status = await readFile('/proc/self/status', 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN)
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 }
}

type ProbeResult = { baseline: number; peak: number; isPeakReset: boolean; ms: number; zipBytes: number }

// Child process: export the products stored under the given folder; prints its figures.
/** Trendyol's preset as catalogue.service builds it; Trendyol extends the background, so no mask is made. */
function trendyolPreset(tempDir: string): ExportPreset {
  const profile = getProfile('trendyol')
  const unused = () => {
    throw new Error('not used by an extend-background export')
  }
  const deps = {
    db: new Proxy({}, { get: unused }) as Db,
    storage: createLocalDiskStorage(tempDir),
    segmenter: { segment: async () => unused() },
    ffmpegPath: 'ffmpeg',
    tempDir,
    inspections: createInspections(),
    videoSlots: createVideoSlots(),
  }
  return presetExporter(deps, profile)
}

if (process.argv[2] === '--probe') {
  const root = process.argv[3] as string
  const isPreset = process.argv[4] === '--preset'
  const storage = createLocalDiskStorage(root)
  const exportOnce = async (count: number) => {
    const { out, bytes } = discard()
    await writeCatalogueExport(out, {
      headers,
      products: products(count),
      openFile: (file) => storage.getStream(file.storageKey),
      preset: isPreset ? trendyolPreset(root) : null,
      locale: 'tr',
      tempDir: root,
    })
    return bytes()
  }
  await exportOnce(2)
  globalThis.gc?.()
  const baseline = (await memoryMb()).now
  // Writing 5 resets the peak to the current size (Linux 4.0+); without it, the peak so far stands.
  const isPeakReset = await writeFile('/proc/self/clear_refs', '5').then(
    () => true,
    () => false,
  )
  const started = performance.now()
  const zipBytes = await exportOnce(productCount)
  const ms = performance.now() - started
  const result: ProbeResult = { baseline, peak: (await memoryMb()).peak, isPeakReset, ms, zipBytes }
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(0)
}

function probe(root: string, isPreset: boolean): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'bench/catalogue-export.ts',
        '--probe',
        root,
        ...(isPreset ? ['--preset'] : []),
      ],
      // As `npm start` and `npm run worker` run the server (package.json; docs/runtime-modes.md).
      { stdio: ['ignore', 'pipe', 'inherit'], env: { MALLOC_ARENA_MAX: '2', ...process.env } },
    )
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the export probe exited with ${code}`))
      else resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}'))
    })
  })
}

/** Real files for the preset run: sharp and ffprobe must be able to read them. */
async function realFiles(root: string): Promise<{ image: Buffer; video: Buffer }> {
  const noise = randomBytes(1080 * 1080 * 3)
  const image = await sharp(noise, { raw: { width: 1080, height: 1080, channels: 3 } })
    .jpeg({ quality: 40 })
    .toBuffer()
  const clip = join(root, 'clip.mp4')
  await promisify(execFile)('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x480:rate=30',
    '-t',
    '9',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-an',
    clip,
  ])
  return { image, video: await readFile(clip) }
}

const isPreset = process.argv.includes('--preset')
const root = await mkdtemp(join(tmpdir(), 'vitrin-export-bench-'))
try {
  const load = machineLoad()
  // Noise, so nothing compresses (as with real photos and videos); each file made distinct,
  // except in the preset run, whose files must stay readable.
  const { image, video } = isPreset
    ? await realFiles(root)
    : { image: randomBytes(imageBytes), video: randomBytes(videoBytes) }
  const storage = createLocalDiskStorage(root)
  for (let i = 0; i < productCount; i++) {
    const sku = `TRD-${String(i + 1).padStart(4, '0')}`
    if (!isPreset) {
      image.writeUInt32BE(i, 0)
      video.writeUInt32BE(i, 0)
    }
    await storage.put(`bench/${sku}.jpg`, image, 'image/jpeg')
    await storage.put(`bench/${sku}.mp4`, video, 'video/mp4')
  }
  const result = await probe(root, isPreset)
  const storedMb = (productCount * (image.length + video.length)) / 1024 / 1024
  const figures: Figure[] = [
    {
      name: `export${isPreset ? ' with the Trendyol preset' : ''}: ${productCount} products (${storedMb.toFixed(0)} MB of files)`,
      value: result.ms,
      unit: 'ms',
    },
    { name: 'export: throughput', value: storedMb / (result.ms / 1000), unit: 'MB/s' },
    { name: 'export: ZIP size', value: result.zipBytes / 1024 / 1024, unit: 'MB' },
    { name: 'RSS before the export (after a warm-up)', value: result.baseline, unit: 'MB' },
    {
      name: `peak RSS added by the export${result.isPeakReset ? '' : ' (peak not reset: upper bound)'}`,
      value: result.peak - result.baseline,
      unit: 'MB',
      budget: budgetMb,
    },
    load,
  ]
  const title = isPreset ? 'Catalogue export with a marketplace preset' : 'Catalogue export (streamed ZIP)'
  const isWithinBudgets = printFigures(title, figures)
  process.exitCode = isWithinBudgets ? 0 : 1
} finally {
  await rm(root, { recursive: true, force: true })
}
