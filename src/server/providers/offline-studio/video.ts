import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import { type AspectRatio, videoRatioFor, videoSpec } from '#shared/scenes.ts'
import { ProviderError, type VideoRequest, type VideoResult } from '../types.ts'
import { type CameraMove, matchCameraMove } from './scene-match.ts'
import { loadPhoto, separateSubject } from './separate.ts'
import { offlineProviderName, throwIfAborted, withImageInput } from './studio-errors.ts'

// The offline video: the product and its scene as two layers, moved by ffmpeg's zoompan at
// different rates so the product comes forward against the scene (real parallax, not a zoom of
// one flat picture), with a soft light sweeping across the product; 8 s of 720p H.264 (yuv420p,
// faststart, no audio), the format every social network accepts. The product layer is cut out by
// the same separation as the image studio; where no product can be found the whole still moves
// as one. ffmpeg runs without a shell, in its own temporary folder, and is killed on cancel.

const fps = 30
const frameCount = videoSpec.seconds * fps
/** zoompan rounds its crop to whole pixels; working at twice the output size halves the jitter. */
const prescale = 2
/** An idle 2-core machine needs about 6 s; anything near this limit is a hung process. */
const defaultTimeoutMs = 120_000

/** Output pixel size: 720p at the chosen ratio; videos are 1:1 or 9:16 (videoRatioFor: 2:3 is made 9:16). */
export function videoSize(ratio: AspectRatio): { width: number; height: number } {
  return videoRatioFor(ratio) === '9:16'
    ? { width: videoSpec.height, height: 1280 }
    : { width: videoSpec.height, height: videoSpec.height }
}

/** What the result says it did, when the seller gave no prompt. */
const moveDescriptions: Record<CameraMove, string> = {
  'push-in': 'slow camera push-in, the product moving against its scene, with a light sweep',
  'pull-out': 'slow camera pull-out, the product moving against its scene, with a light sweep',
  'pan-left': 'slow camera pan from right to left, the product moving against its scene, with a light sweep',
  'pan-right': 'slow camera pan from left to right, the product moving against its scene, with a light sweep',
}
const flatMoveDescriptions: Record<CameraMove, string> = {
  'push-in': 'slow, smooth camera push-in toward the centre of the image',
  'pull-out': 'slow, smooth camera pull-out from the centre of the image',
  'pan-left': 'slow, smooth camera pan from right to left across the image',
  'pan-right': 'slow, smooth camera pan from left to right across the image',
}

/** The eased progress of the move, 0 → 1, in zoompan's frame counter `on`. */
const ease = `((1-cos(PI*on/${frameCount - 1}))/2)`

/** The scene layer's zoom and crop origin (input pixels) per move. */
function sceneMove(move: CameraMove): { z: string; x: string; y: string } {
  const centreX = 'iw/2-(iw/zoom/2)'
  const centreY = 'ih/2-(ih/zoom/2)'
  const moves: Record<CameraMove, { z: string; x: string; y: string }> = {
    'push-in': { z: `1+0.06*${ease}`, x: centreX, y: centreY },
    'pull-out': { z: `1.06-0.06*${ease}`, x: centreX, y: centreY },
    'pan-left': { z: '1.08', x: `(iw-iw/zoom)*(1-${ease})`, y: centreY },
    'pan-right': { z: '1.08', x: `(iw-iw/zoom)*${ease}`, y: centreY },
  }
  return moves[move]
}

/** The zoompan filter of the whole still moving as one (no product found to lift out). */
export function cameraFilter(move: CameraMove, width: number, height: number): string {
  const { z, x, y } = sceneMove(move)
  // Single quotes protect the commas inside the expressions from the filtergraph parser.
  return `zoompan=z='${z}':x='${x}':y='${y}':d=${frameCount}:s=${width}x${height}:fps=${fps}`
}

/**
 * Where the product stands (its base, in input pixels), which stays on its spot of the scene
 * while the product itself grows faster than the scene (it is nearer the camera), or slides
 * further on a pan. Returns the product layer's zoompan and the scene's.
 */
export function parallaxFilters(
  move: CameraMove,
  anchor: { x: number; y: number },
  width: number,
  height: number,
): { scene: string; product: string } {
  const scene = sceneMove(move)
  const growth: Record<CameraMove, string> = {
    'push-in': `(1+0.12*${ease})`,
    'pull-out': `(1+0.12*(1-${ease}))`,
    'pan-left': '1.04',
    'pan-right': '1.04',
  }
  // How much further the product slides than the scene on a pan, in input pixels.
  const slide: Record<CameraMove, string> = {
    'push-in': '0',
    'pull-out': '0',
    'pan-left': `iw*0.05*(${ease}-0.5)`,
    'pan-right': `-iw*0.05*(${ease}-0.5)`,
  }
  const sceneZoom = `(${scene.z})`
  const sceneX = scene.x.replaceAll('zoom', sceneZoom)
  const sceneY = scene.y.replaceAll('zoom', sceneZoom)
  // The anchor lands at (A - origin) * zoom on both layers; solve for the product's origin.
  const x = `${anchor.x}-((${anchor.x}-(${sceneX}))*${sceneZoom}+${slide[move]})/zoom`
  const y = `${anchor.y}-(${anchor.y}-(${sceneY}))*${sceneZoom}/zoom`
  const size = `d=${frameCount}:s=${width}x${height}:fps=${fps}`
  return {
    scene: `zoompan=z='${scene.z}':x='${scene.x}':y='${scene.y}':${size}`,
    product: `zoompan=z='${sceneZoom}*${growth[move]}':x='${x}':y='${y}':${size}`,
  }
}

/** The still ffmpeg starts from: upright, at twice the output size, letterboxed on a blur if its ratio differs. */
async function prepareStill(bytes: Buffer, width: number, height: number): Promise<Buffer> {
  const target = { width: width * prescale, height: height * prescale }
  const source = sharp(bytes, { failOn: 'error' }).rotate()
  // Width and height as displayed, after the EXIF orientation is applied.
  const { width: sourceWidth, height: sourceHeight } = (await source.metadata()).autoOrient
  const isSameRatio = Math.abs(sourceWidth / sourceHeight - width / height) < 0.02
  if (isSameRatio) {
    return source
      .resize(target.width, target.height, { fit: 'cover', kernel: 'lanczos3' })
      .flatten({ background: '#ffffff' })
      .png()
      .toBuffer()
  }
  // Another ratio: the whole image, centred over a blurred, dimmed fill of itself, never cropped.
  const fill = await sharp(bytes)
    .rotate()
    .resize(target.width, target.height, { fit: 'cover' })
    .flatten({ background: '#ffffff' })
    .blur(30)
    .modulate({ brightness: 0.7 })
    .toBuffer()
  const fitted = await source
    .resize(target.width, target.height, { fit: 'inside', kernel: 'lanczos3' })
    .flatten({ background: '#ffffff' })
    .toBuffer()
  return sharp(fill)
    .composite([{ input: fitted, gravity: 'centre' }])
    .png()
    .toBuffer()
}

/** The still split into what moves: the scene with the product filled over, the product, its mask. */
type Layers = { scene: Buffer; product: Buffer; mask: Buffer; anchor: { x: number; y: number } }

/**
 * Lifts the product off the still with the image studio's separation. The scene layer gets the
 * product's place filled with the colours around it (a blur that only reads the scene), so the
 * product can move without leaving a ghost of itself behind. Null when no product is found.
 */
async function splitLayers(
  still: Buffer,
  side: number,
  segmenter: Segmenter | undefined,
): Promise<Layers | null> {
  // The layers are made at the video's own size: the cut at the still's full resolution (what an
  // image result needs) would be wasted here, and the mask below is laid out at this size.
  const { source: _fullSize, ...photo } = await loadPhoto(still, side)
  const subject = await separateSubject(photo, segmenter)
  if (!subject.isSeparated) return null
  const { width, height } = photo
  const cut = { left: subject.box.left, top: subject.box.top }
  const raw = { width, height, channels: 1 as const }
  const mask = Buffer.alloc(width * height)
  for (let y = 0; y < subject.height; y++) {
    for (let x = 0; x < subject.width; x++) {
      mask[(y + cut.top) * width + x + cut.left] = subject.data[(y * subject.width + x) * 4 + 3] as number
    }
  }
  await closeMask(mask, width, height)
  const product = await sharp(still)
    .composite([
      { input: subject.data, raw: { width: subject.width, height: subject.height, channels: 4 }, ...cut },
    ])
    .removeAlpha()
    .png()
    .toBuffer()
  // Fill the product's place (grown a little) from the scene around it, at a small size.
  const small = { width: Math.max(8, Math.round(width / 8)), height: Math.max(8, Math.round(height / 8)) }
  const hole = (await sharp(mask, { raw }).blur(6).extractChannel(0).raw().toBuffer()).map((v) =>
    v >= 8 ? 255 : 0,
  )
  const known = await sharp(hole, { raw })
    .negate()
    .resize(small.width, small.height)
    .extractChannel(0)
    .raw()
    .toBuffer()
  const pixels = await sharp(still).removeAlpha().resize(small.width, small.height).raw().toBuffer()
  const weighted = Buffer.alloc(pixels.length)
  for (let i = 0; i < known.length; i++) {
    for (let c = 0; c < 3; c++) {
      weighted[i * 3 + c] = Math.round(((pixels[i * 3 + c] as number) * (known[i] as number)) / 255)
    }
  }
  // Near the edge the close surroundings; deep inside a large product the wider scene.
  const smallSide = Math.max(small.width, small.height)
  const [near, far] = await Promise.all([
    spreadKnown(weighted, known, small, Math.max(3, Math.round(smallSide * 0.06))),
    spreadKnown(weighted, known, small, Math.max(6, Math.round(smallSide * 0.3))),
  ])
  const filled = Buffer.alloc(pixels.length)
  for (let i = 0; i < known.length; i++) {
    const source = (near.weight[i] as number) >= 24 ? near : far
    const weight = Math.max(1, source.weight[i] as number)
    for (let c = 0; c < 3; c++) {
      filled[i * 3 + c] = Math.min(255, Math.round(((source.colour[i * 3 + c] as number) * 255) / weight))
    }
  }
  const patchColour = await sharp(filled, { raw: { ...small, channels: 3 } })
    .resize(width, height)
    .raw()
    .toBuffer()
  const patch = await sharp(patchColour, { raw: { width, height, channels: 3 } })
    .joinChannel(await sharp(hole, { raw }).blur(3).extractChannel(0).raw().toBuffer(), { raw })
    .png()
    .toBuffer()
  const scene = await sharp(still)
    .composite([{ input: patch }])
    .removeAlpha()
    .png()
    .toBuffer()
  const maskPng = await sharp(mask, { raw }).png().toBuffer()
  const anchor = {
    x: Math.round(cut.left + subject.width / 2),
    y: Math.round(cut.top + subject.height),
  }
  return { scene, product, mask: maskPng, anchor }
}

/**
 * Makes the cut one solid layer: the product's convex outline, softened by a pixel or two. A
 * re-cut of a finished scene can miss a part (a white cup rim against a pale wall), and that part
 * would tear away from the rest as the layers move apart; inside the outline nothing can.
 */
async function closeMask(mask: Buffer, width: number, height: number): Promise<void> {
  const points: [number, number][] = []
  for (let y = 0; y < height; y++) {
    let left = -1
    let right = -1
    for (let x = 0; x < width; x++) {
      if ((mask[y * width + x] as number) < 128) continue
      if (left < 0) left = x
      right = x
    }
    if (left >= 0) points.push([left, y], [right + 1, y])
  }
  if (points.length < 3) return
  const hull = convexHull(points)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#000"/><polygon points="${hull.map(([x, y]) => `${x},${y}`).join(' ')}" fill="#fff"/></svg>`
  const solid = await sharp(Buffer.from(svg)).blur(1.5).extractChannel(0).raw().toBuffer()
  solid.copy(mask)
}

/** Andrew's monotone chain: the convex hull of points sorted by x, then y. */
function convexHull(points: [number, number][]): [number, number][] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const cross = (o: [number, number], a: [number, number], b: [number, number]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
  const half = (list: [number, number][]) => {
    const out: [number, number][] = []
    for (const p of list) {
      while (
        out.length >= 2 &&
        cross(out[out.length - 2] as [number, number], out[out.length - 1] as [number, number], p) <= 0
      )
        out.pop()
      out.push(p)
    }
    out.pop()
    return out
  }
  return [...half(sorted), ...half(sorted.reverse())]
}

/** The known pixels blurred, with their blurred weight: colour / weight is the surroundings' mean. */
async function spreadKnown(
  weighted: Buffer,
  known: Buffer,
  size: { width: number; height: number },
  sigma: number,
): Promise<{ colour: Buffer; weight: Buffer }> {
  const [colour, weight] = await Promise.all([
    sharp(weighted, { raw: { ...size, channels: 3 } })
      .blur(sigma)
      .raw()
      .toBuffer(),
    sharp(known, { raw: { ...size, channels: 1 } })
      .blur(sigma)
      .extractChannel(0)
      .raw()
      .toBuffer(),
  ])
  return { colour, weight }
}

/** A soft diagonal band of light, as wide as a third of the frame, that slides across the product. */
function lightSweep(width: number, height: number): Buffer {
  const band = Math.round(width * 0.35)
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${band}" height="${height}">
    <defs><linearGradient id="s" x1="0" y1="0" x2="1" y2="0.25">
      <stop offset="0" stop-color="#fff" stop-opacity="0"/>
      <stop offset="0.5" stop-color="#fff" stop-opacity="0.32"/>
      <stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient></defs>
    <rect width="${band}" height="${height}" fill="url(#s)"/></svg>`,
  )
}

/** Runs ffmpeg to completion; kills it on abort or timeout. */
function runFfmpeg(
  ffmpegPath: string,
  args: string[],
  signal: AbortSignal,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = ''
    let stopReason: 'canceled' | 'timeout' | null = null
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'ignore', 'pipe'], shell: false })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      // Only the tail matters for the log; keep memory flat on a chatty ffmpeg.
      stderr = (stderr + chunk).slice(-4000)
    })
    const stop = (reason: 'canceled' | 'timeout') => {
      stopReason = reason
      child.kill('SIGKILL')
    }
    const onAbort = () => stop('canceled')
    signal.addEventListener('abort', onAbort, { once: true })
    const timer = setTimeout(() => stop('timeout'), timeoutMs)
    let isSettled = false
    const settle = (error: ProviderError | null) => {
      if (isSettled) return
      isSettled = true
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else resolve()
    }
    child.on('error', (error) => {
      settle(
        new ProviderError(
          offlineProviderName,
          'unavailable',
          'The offline video studio could not start ffmpeg',
          {
            cause: error,
          },
        ),
      )
    })
    // 'close' waits for stderr to drain and for the process to be gone, so the temp folder
    // is removed only after ffmpeg has let go of it.
    child.on('close', (code, exitSignal) => {
      if (stopReason === 'canceled') {
        settle(
          new ProviderError(offlineProviderName, 'canceled', 'The offline video was canceled', {
            cause: signal.reason,
          }),
        )
      } else if (stopReason === 'timeout') {
        settle(
          new ProviderError(offlineProviderName, 'timeout', 'The offline video took too long', {
            cause: { stderr },
          }),
        )
      } else if (code === 0) {
        settle(null)
      } else {
        settle(
          new ProviderError(
            offlineProviderName,
            'unavailable',
            'The offline video studio failed to encode the video',
            {
              cause: { code, signal: exitSignal, stderr: stderr.slice(-2000) },
            },
          ),
        )
      }
    })
    if (signal.aborted) onAbort()
  })
}

export type VideoOptions = {
  ffmpegPath: string
  /** Bounds a hung ffmpeg. */
  timeoutMs?: number
  /** Where the per-video working folders go; the system temp folder by default. */
  tempDir?: string
  /** Finds the product on a busy scene (the image studio's model); plain backdrops need none. */
  segmenter?: Segmenter
}

const encoderArgs = [
  '-frames:v',
  String(frameCount),
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '23',
  '-pix_fmt',
  'yuv420p',
  '-an',
  '-map_metadata',
  '-1',
  '-movflags',
  '+faststart',
]

/** Makes the 8-second clip. */
export async function makeVideo(
  request: VideoRequest,
  signal: AbortSignal,
  options: VideoOptions,
): Promise<VideoResult> {
  throwIfAborted(signal)
  const move = matchCameraMove(request.prompt)
  const { width, height } = videoSize(request.aspectRatio)
  const still = await withImageInput(() => prepareStill(request.image.bytes, width, height))
  const layers = await splitLayers(still, Math.max(width, height) * prescale, options.segmenter)
  throwIfAborted(signal)
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'vitrin-video-'))
  try {
    const output = join(dir, 'video.mp4')
    const head = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y']
    let args: string[]
    if (layers) {
      const files = ['scene.png', 'product.png', 'mask.png', 'sweep.png'].map((name) => join(dir, name))
      const [scene, product, mask, sweep] = files as [string, string, string, string]
      await Promise.all([
        writeFile(scene, layers.scene),
        writeFile(product, layers.product),
        writeFile(mask, layers.mask),
        writeFile(sweep, await sharp(lightSweep(width, height)).png().toBuffer()),
      ])
      const filters = parallaxFilters(move, layers.anchor, width, height)
      const seconds = videoSpec.seconds
      // Every layer moves in the encoder's own yuv420p (with alpha for the product): zoompan
      // scales a planar frame in about a third of the time of an RGB one, the product and its
      // mask move as one layer, and nothing is converted between the moves and the encoder.
      const graph = [
        `[0:v]format=yuv420p,${filters.scene}[scene]`,
        `[1:v]format=yuv420p[colour];[2:v]format=gray[alpha]`,
        `[colour][alpha]alphamerge,format=yuva420p,${filters.product},split[moved][movedAlpha]`,
        '[movedAlpha]alphaextract[mask]',
        // The sweep crosses the frame between the first and the last second, on the product only.
        `[moved]format=yuv420p[product]`,
        `[product][3:v]overlay=x='-w+(W+w)*(t-1)/${seconds - 2}':y=0:format=yuv420[lit]`,
        '[lit][mask]alphamerge[cut]',
        '[scene][cut]overlay=format=yuv420,format=yuv420p[out]',
      ].join(';')
      args = [
        ...head,
        '-i',
        scene,
        '-i',
        product,
        '-i',
        mask,
        '-loop',
        '1',
        '-framerate',
        String(fps),
        '-i',
        sweep,
        '-filter_complex',
        graph,
        '-map',
        '[out]',
        ...encoderArgs,
        output,
      ]
    } else {
      const input = join(dir, 'still.png')
      await writeFile(input, still)
      args = [
        ...head,
        '-i',
        input,
        '-vf',
        `format=yuv420p,${cameraFilter(move, width, height)},format=yuv420p`,
        ...encoderArgs,
        output,
      ]
    }
    await runFfmpeg(options.ffmpegPath, args, signal, options.timeoutMs ?? defaultTimeoutMs)
    const bytes = await readFile(output)
    const described = layers ? moveDescriptions[move] : flatMoveDescriptions[move]
    return {
      video: { bytes, mime: 'video/mp4' },
      promptUsed: request.prompt.trim() || `${described} (offline studio, not AI)`,
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
