import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { createTextReader } from '#server/features/marketplaces/read-text.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { MarketplaceCheckView, MarketplaceSummariesResponse } from '#shared/contracts/marketplaces.ts'
import { productScenes } from '#shared/scenes.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { signUp, uploadAsset } from './lib/app-client.ts'
import { askChild, type Child, originOf, startChild, stopChild } from './lib/child.ts'
import { readProcStatus } from './lib/memory.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'
import { median, percentile } from './lib/stats.ts'

// `npx tsx bench/marketplace-check.ts` (part of `npm run bench`): the pre-publish checker against
// its budgets (issue 14: "checking one image + its copy: p95 ≤ 300 ms"; issue 26: "check of a
// fresh result ≤ 300 ms p95; 20 library badges ≤ 1 s"). Through the real HTTP API of an app
// process (bench/support/marketplace-server.ts: the offline studio, an in-process worker, OCR on),
// one seller makes 19 image results (three product photos on six scenes, and one more) and an
// SEO generation of the first product. The worker's facts measurer measures each image's facts
// (segmentation, OCR, the product's fidelity to the seller's photo) after its job has settled
// (decision 44); the bench waits until it has measured every result (asking the app child how
// many are left, and reporting how long that took after the last result), then:
// (a) the library's badges for all 20 fresh results (GET /api/marketplace/summaries, asked again
//     for any `pending` until every one is ready), before any check: the first time, and p95 over
//     10 more asks. Budget: ≤ 1 s.
// (b) the first check of each fresh image result (GET /api/generations/:id/marketplace/amazon-tr):
//     p50/p95 over 19. Budget: p95 ≤ 300 ms.
// (c) checks on stored facts, as the panel asks again: one round is an image result's check and
//     its product's copy check, one after the other, over 50 rounds. Budget: p95 ≤ 300 ms.
// (e) One more image result, checked the moment the bench sees it succeed, as the result panel
//     opens its check: the measurer has only just started on it, so the check waits for that
//     measurement (shared in this single process) or measures. Reported, no budget.
// (d) OCR alone in this process (createTextReader, as the app builds it) on the result files,
//     after a warm-up read that starts its thread: p50/p95 per image, clean (both passes run) and
//     with a promo overlay (the first pass finds it), and the resident memory it adds (after the
//     first read, after all, and once closed). The app is stopped first, so nothing else runs.
// Exits 1 when a budget is missed.

const photoNames = ['coffee.png', 'rocket.jpg'] as const
const scenes = productScenes.slice(0, 6).map((scene) => scene.prompt)
const badgeBudgetMs = 1000
const freshCheckBudgetMs = 300
const rounds = 50
const roundBudgetMs = 300
const profile = 'amazon-tr'

const photos = new URL('../tests/fixtures/photos/', import.meta.url)

/** The seller's product photos as JPEG: the two real photos and the tests' drawn bottle. */
async function inputPhotos(): Promise<Buffer[]> {
  const real = await Promise.all(
    photoNames.map(async (name) =>
      sharp(await readFile(new URL(name, photos)))
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  )
  return [...real, await productPhoto({ width: 1200, height: 1200 })]
}

/** A result with "BÜYÜK İNDİRİM %50" in large dark letters on a light band across its top. */
async function withPromoOverlay(bytes: Buffer): Promise<Buffer> {
  const { width = 1080, height = 1080 } = await sharp(bytes).metadata()
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="0" y="60" width="${width}" height="160" fill="#f4f1ec"/>
    <text x="80" y="175" font-family="DejaVu Sans" font-weight="bold" font-size="80"
      fill="#1a1a1a">BÜYÜK İNDİRİM %50</text>
  </svg>`
  return sharp(bytes)
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 90 })
    .toBuffer()
}

async function call<T>(origin: string, cookie: string, path: string, json?: unknown): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { cookie, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

/** Polls a generation until it has finished (the worker runs two at a time). */
async function finished(origin: string, cookie: string, id: string): Promise<GenerationView> {
  const deadline = Date.now() + 300_000
  for (;;) {
    const { generation } = await call<{ generation: GenerationView }>(
      origin,
      cookie,
      `/api/generations/${id}`,
    )
    if (generation.status === 'succeeded') return generation
    if (generation.status !== 'queued' && generation.status !== 'running') {
      throw new Error(`generation ${id} ended ${generation.status}`)
    }
    if (Date.now() > deadline) throw new Error(`generation ${id} did not finish`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** One check over HTTP, timed from request to parsed answer. */
async function timedCheck(origin: string, cookie: string, id: string) {
  const started = performance.now()
  const view = await call<MarketplaceCheckView>(
    origin,
    cookie,
    `/api/generations/${id}/marketplace/${profile}`,
  )
  return { ms: performance.now() - started, view }
}

const figures: Figure[] = [machineLoad()]
const rssNow = () => readProcStatus(process.pid, 'VmRSS') ?? Number.NaN

const app: Child = await startChild('bench/support/marketplace-server.ts')
let resultFiles: Buffer[] = []
try {
  const origin = originOf(app)
  const appPid = app.ready.pid ?? 0
  const cookie = await signUp(origin)
  await call(origin, cookie, '/api/billing/subscription', { planId: 'growth' })

  // The results: every product photo on every scene, and the first product's copy.
  const inputs = await inputPhotos()
  const inputIds: string[] = []
  for (const [index, bytes] of inputs.entries()) {
    inputIds.push(await uploadAsset(origin, cookie, bytes, `product-${index + 1}.jpg`))
  }
  const queued: string[] = []
  for (const imageAssetId of inputIds) {
    for (const prompt of scenes) {
      const { generation } = await call<{ generation: GenerationView }>(origin, cookie, '/api/generations', {
        mode: 'image',
        imageAssetId,
        prompt,
      })
      queued.push(generation.id)
    }
  }
  // One more, so that with the copy there are 20 results: a library page of badges.
  const { generation: extra } = await call<{ generation: GenerationView }>(
    origin,
    cookie,
    '/api/generations',
    {
      mode: 'image',
      imageAssetId: inputIds[0],
      prompt: 'glass pedestal',
    },
  )
  queued.push(extra.id)
  const { generation: seo } = await call<{ generation: GenerationView }>(origin, cookie, '/api/generations', {
    mode: 'seo',
    imageAssetId: inputIds[0],
    details: { name: 'Seramik Kahve Kupası', brand: 'Anka' },
  })
  const images: GenerationView[] = []
  for (const id of queued) images.push(await finished(origin, cookie, id))
  await finished(origin, cookie, seo.id)
  // The measurer works after the jobs: wait until it has measured every result (no check asked).
  const lastResultAt = performance.now()
  const measureDeadline = Date.now() + 600_000
  while ((await askChild<number>(app, { type: 'unmeasured' }, 'unmeasured')) > 0) {
    if (Date.now() > measureDeadline) throw new Error('the facts measurer did not finish')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  figures.push({
    name: `facts measured after the last of ${images.length} results`,
    value: (performance.now() - lastResultAt) / 1000,
    unit: 's',
  })
  resultFiles = await Promise.all(
    images.map(async (image) => {
      if (image.result?.type !== 'image') throw new Error('expected an image result')
      const response = await fetch(`${origin}${image.result.image.url}`, { headers: { cookie } })
      if (!response.ok) throw new Error(`the result file answered ${response.status}`)
      return Buffer.from(await response.arrayBuffer())
    }),
  )
  const appRssBefore = readProcStatus(appPid, 'VmRSS') ?? Number.NaN

  // (a) The library's badges for the 20 fresh results, before any check.
  const ids = [...images.map((image) => image.id), seo.id]
  const badges = async () => {
    const started = performance.now()
    let left = ids
    for (let ask = 0; left.length > 0; ask++) {
      if (ask > 20) throw new Error('badges still pending after 20 asks')
      const answer = await call<MarketplaceSummariesResponse>(
        origin,
        cookie,
        `/api/marketplace/summaries?profile=${profile}&ids=${left.join(',')}`,
      )
      if (answer.summaries.some((summary) => summary.status === 'unavailable'))
        throw new Error('a badge is unavailable')
      left = answer.summaries.filter((summary) => summary.status === 'pending').map((s) => s.generationId)
    }
    return performance.now() - started
  }
  const firstBadges = await badges()
  const badgeTimes: number[] = []
  for (let ask = 0; ask < 10; ask++) badgeTimes.push(await badges())
  figures.push(
    {
      name: `${ids.length} library badges, fresh results`,
      value: firstBadges,
      unit: 'ms',
      budget: badgeBudgetMs,
    },
    {
      name: `${ids.length} library badges, p95 of 10 more`,
      value: percentile(badgeTimes, 95),
      unit: 'ms',
      budget: badgeBudgetMs,
    },
  )

  // (b) The first check of each fresh image result: its facts were stored by the measurer.
  const firstChecks: number[] = []
  for (const image of images) {
    const { ms, view } = await timedCheck(origin, cookie, image.id)
    if (view.image?.facts.text === null) throw new Error(`OCR gave no reading for ${image.id}`)
    firstChecks.push(ms)
  }
  const appRssAfter = readProcStatus(appPid, 'VmRSS') ?? Number.NaN
  figures.push(
    {
      name: `first check of a fresh result, p50 of ${firstChecks.length}`,
      value: median(firstChecks),
      unit: 'ms',
    },
    {
      name: `first check of a fresh result, p95 of ${firstChecks.length}`,
      value: percentile(firstChecks, 95),
      unit: 'ms',
      budget: freshCheckBudgetMs,
    },
    { name: 'first check of a fresh result, max', value: Math.max(...firstChecks), unit: 'ms' },
    { name: 'app RSS before the first check', value: appRssBefore, unit: 'MB' },
    { name: 'app RSS after the first checks', value: appRssAfter, unit: 'MB' },
  )

  // (c) Stored facts: an image check and its product's copy check, per round.
  for (const image of images) await timedCheck(origin, cookie, image.id)
  await timedCheck(origin, cookie, seo.id)
  const roundTimes: number[] = []
  const imageTimes: number[] = []
  const copyTimes: number[] = []
  for (let round = 0; round < rounds; round++) {
    const image = images[round % images.length]
    if (!image) throw new Error('no image')
    const imageCheck = await timedCheck(origin, cookie, image.id)
    const copyCheck = await timedCheck(origin, cookie, seo.id)
    if (!copyCheck.view.copy) throw new Error('the SEO result was not checked as copy')
    imageTimes.push(imageCheck.ms)
    copyTimes.push(copyCheck.ms)
    roundTimes.push(imageCheck.ms + copyCheck.ms)
  }
  figures.push(
    { name: `stored facts: image + copy check, p50 (${rounds})`, value: median(roundTimes), unit: 'ms' },
    {
      name: `stored facts: image + copy check, p95 (${rounds})`,
      value: percentile(roundTimes, 95),
      unit: 'ms',
      budget: roundBudgetMs,
    },
    { name: 'stored facts: image + copy check, max', value: Math.max(...roundTimes), unit: 'ms' },
    { name: 'stored facts: image check alone, p95', value: percentile(imageTimes, 95), unit: 'ms' },
    { name: 'stored facts: copy check alone, p95', value: percentile(copyTimes, 95), unit: 'ms' },
  )

  // (e) A result checked as it arrives.
  const { generation: lone } = await call<{ generation: GenerationView }>(
    origin,
    cookie,
    '/api/generations',
    {
      mode: 'image',
      imageAssetId: inputIds[1],
      prompt: scenes[0],
    },
  )
  await finished(origin, cookie, lone.id)
  const arriving = await timedCheck(origin, cookie, lone.id)
  figures.push({
    name: 'check opened as a result arrives (measurer just started)',
    value: arriving.ms,
    unit: 'ms',
  })
} finally {
  await stopChild(app)
}

// (d) OCR alone, in this process, on the result files. libvips's operation cache is off here, so
// that the memory added is the OCR thread's and its reads' (the app keeps that cache either way).
sharp.cache(false)
const overlaid = await Promise.all(resultFiles.map(withPromoOverlay))
const rssBefore = rssNow()
const reader = createTextReader({ log: { warn: (context, message) => console.warn(message, context) } })
try {
  const warmUp = resultFiles[0]
  if (!warmUp) throw new Error('no result files')
  const startedAt = performance.now()
  await reader.read(warmUp)
  const startMs = performance.now() - startedAt
  const rssAfterStart = rssNow()
  const timeReads = async (files: Buffer[]) => {
    const times: number[] = []
    let wordsFound = 0
    for (const file of files) {
      const started = performance.now()
      const words = await reader.read(file)
      times.push(performance.now() - started)
      if (words === null) throw new Error('OCR could not read a result')
      if (words.length > 0) wordsFound++
    }
    return { times, wordsFound }
  }
  // Twice over the clean files, so the percentiles rest on more than nine reads.
  const clean = await timeReads([...resultFiles, ...resultFiles])
  const promo = await timeReads(overlaid)
  const rssAfter = rssNow()
  figures.push(
    { name: 'OCR: start and first read', value: startMs, unit: 'ms' },
    { name: `OCR: clean result, p50 (${clean.times.length})`, value: median(clean.times), unit: 'ms' },
    {
      name: `OCR: clean result, p95 (${clean.times.length})`,
      value: percentile(clean.times, 95),
      unit: 'ms',
    },
    { name: 'OCR: clean results with words found', value: clean.wordsFound, unit: '' },
    { name: `OCR: promo overlay, p50 (${promo.times.length})`, value: median(promo.times), unit: 'ms' },
    {
      name: `OCR: promo overlay, p95 (${promo.times.length})`,
      value: percentile(promo.times, 95),
      unit: 'ms',
    },
    { name: 'OCR: promo overlays read', value: promo.wordsFound, unit: '' },
    { name: 'OCR: RSS added after the first read', value: rssAfterStart - rssBefore, unit: 'MB' },
    { name: 'OCR: RSS added after all reads', value: rssAfter - rssBefore, unit: 'MB' },
  )
} finally {
  await reader.close()
}
figures.push({ name: 'OCR: RSS added after close', value: rssNow() - rssBefore, unit: 'MB' })

const isWithinBudgets = printFigures('Marketplace check (issues 14 and 26)', figures)
process.exit(isWithinBudgets ? 0 : 1)
