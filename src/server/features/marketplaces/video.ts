import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import sharp from 'sharp'
import type { VideoFacts } from '#shared/marketplaces/facts.ts'
import type { PixelSize, Ratio } from '#shared/marketplaces/types.ts'

// Videos for marketplaces: their facts as the container states them (ffprobe), and a clip made
// long enough for a duration floor (Trendyol takes 8–120 s; the studio's clips are 8.0 s, which
// a rounding marketplace may read as 7.99). ffmpeg and ffprobe run without a shell, in a
// temporary folder of their own, killed on timeout or abort, like the offline studio's
// (src/server/providers/offline-studio/video.ts); the binary is config.providers.ffmpegPath.

export type VideoTools = {
  /** config.providers.ffmpegPath ('ffmpeg' on the PATH by default). */
  ffmpegPath: string
  /** ffprobe; by default the one beside ffmpegPath (the same folder, or the PATH). */
  ffprobePath?: string
  /** Bounds a hung process; re-encoding an 8-second clip takes a few seconds. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Where the working folders go; the system temp folder by default. */
  tempDir?: string
}

const defaultTimeoutMs = 120_000

/** How every ffmpeg run here starts: quiet, no terminal input, overwriting its own output. */
const ffmpegHead = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y']

/** The file every re-made clip is: H.264 (veryfast, CRF 18), metadata dropped, faststart MP4. */
const h264Mp4 = (output: string) => [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '18',
  '-pix_fmt',
  'yuv420p',
  '-map_metadata',
  '-1',
  '-movflags',
  '+faststart',
  output,
]

/** ffprobe as installed beside ffmpeg: `/opt/ff/ffmpeg` → `/opt/ff/ffprobe`, `ffmpeg` → `ffprobe`. */
export function ffprobeBeside(ffmpegPath: string): string {
  const slash = ffmpegPath.lastIndexOf('/')
  return ffmpegPath.slice(0, slash + 1) + ffmpegPath.slice(slash + 1).replace(/ffmpeg/, 'ffprobe')
}

/** A tool run that failed: it could not start, exited non-zero, or ran out of time. */
export class VideoToolError extends Error {
  constructor(
    message: string,
    readonly reason: 'unavailable' | 'failed' | 'timeout' | 'canceled',
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'VideoToolError'
  }
}

/** Runs a tool to completion and returns its stdout; stderr's tail goes into the error's cause. */
function runTool(path: string, args: string[], tools: VideoTools): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    let stopReason: 'canceled' | 'timeout' | null = null
    const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false })
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000)
    })
    const stop = (reason: 'canceled' | 'timeout') => {
      stopReason = reason
      child.kill('SIGKILL')
    }
    const onAbort = () => stop('canceled')
    tools.signal?.addEventListener('abort', onAbort, { once: true })
    const timer = setTimeout(() => stop('timeout'), tools.timeoutMs ?? defaultTimeoutMs)
    let isSettled = false
    const settle = (error: VideoToolError | null) => {
      if (isSettled) return
      isSettled = true
      clearTimeout(timer)
      tools.signal?.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else resolve(stdout)
    }
    const name = basename(path)
    child.on('error', (error) =>
      settle(new VideoToolError(`${name} could not start`, 'unavailable', { cause: error })),
    )
    child.on('close', (code, exitSignal) => {
      if (stopReason) {
        settle(
          new VideoToolError(`${name} was ${stopReason === 'timeout' ? 'too slow' : 'canceled'}`, stopReason),
        )
      } else if (code === 0) {
        settle(null)
      } else {
        settle(
          new VideoToolError(`${name} failed (exit code ${code})`, 'failed', {
            cause: { code, signal: exitSignal, stderr: stderr.slice(-2000) },
          }),
        )
      }
    })
    if (tools.signal?.aborted) onAbort()
  })
}

type ProbeStream = {
  codec_type?: string
  codec_name?: string
  width?: number
  height?: number
  r_frame_rate?: string
  tags?: { rotate?: string }
  side_data_list?: { rotation?: number }[]
}
type Probe = {
  streams?: ProbeStream[]
  format?: { duration?: string; format_name?: string; size?: string; tags?: { major_brand?: string } }
}

/** The container's name as people know it: ffprobe says 'mov,mp4,…' for both MP4 and QuickTime. */
function containerFormat(probe: Probe): string {
  const names = (probe.format?.format_name ?? '').split(',')
  const brand = (probe.format?.tags?.major_brand ?? '').trim()
  if (names.includes('mp4') || names.includes('mov')) {
    if (brand === 'qt') return 'mov'
    if (brand.startsWith('3g')) return '3gp'
    return 'mp4'
  }
  if (names.includes('webm')) {
    const codecs = (probe.streams ?? []).map((s) => s.codec_name ?? '')
    const isWebm = codecs.every((c) => ['vp8', 'vp9', 'av1', 'opus', 'vorbis'].includes(c))
    return isWebm ? 'webm' : 'mkv'
  }
  return names[0] || 'other'
}

/** Width and height as shown: a phone's portrait clip is often stored landscape with a rotation. */
function shownSize(stream: ProbeStream): { width: number; height: number } {
  const width = stream.width ?? 0
  const height = stream.height ?? 0
  const rotation =
    stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? Number(stream.tags?.rotate ?? 0)
  return Math.abs(rotation) % 180 === 90 ? { width: height, height: width } : { width, height }
}

async function withFile<T>(
  input: string | Buffer,
  tools: VideoTools,
  use: (path: string) => Promise<T>,
): Promise<T> {
  if (typeof input === 'string') return use(input)
  const dir = await mkdtemp(join(tools.tempDir ?? tmpdir(), 'vitrin-video-'))
  try {
    const path = join(dir, 'input')
    await writeFile(path, input)
    return await use(path)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function probeFile(path: string, tools: VideoTools): Promise<Probe> {
  const stdout = await runTool(
    tools.ffprobePath ?? ffprobeBeside(tools.ffmpegPath),
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
    tools,
  )
  return JSON.parse(stdout) as Probe
}

function factsOf(probe: Probe, bytes: number): VideoFacts & { frameRate: number } {
  const video = (probe.streams ?? []).find((s) => s.codec_type === 'video')
  const duration = Number(probe.format?.duration)
  if (!video || !Number.isFinite(duration)) {
    throw new VideoToolError('not a video with a duration', 'failed', { cause: { probe } })
  }
  const [num, den] = (video.r_frame_rate ?? '30/1').split('/').map(Number)
  const frameRate = num && den ? num / den : 30
  return {
    durationSeconds: duration,
    ...shownSize(video),
    bytes,
    format: containerFormat(probe),
    hasAudio: (probe.streams ?? []).some((s) => s.codec_type === 'audio'),
    frameRate,
  }
}

/**
 * A video's facts for the checker: the container's real duration (not the length asked for), the
 * size as shown, the file's bytes, the container format and whether it has sound. Throws
 * VideoToolError when ffprobe is missing or the file is not a video.
 */
export async function measureVideo(input: string | Buffer, tools: VideoTools): Promise<VideoFacts> {
  const bytes = typeof input === 'string' ? (await stat(input)).size : input.length
  const { frameRate: _, ...facts } = factsOf(
    await withFile(input, tools, (path) => probeFile(path, tools)),
    bytes,
  )
  return facts
}

/**
 * How a clip is lengthened: slowed down by at most this factor, the rest by holding its last
 * frame. A few per cent slower is not seen (films run 4 % fast on PAL television unnoticed) and
 * keeps the clip moving to its end; a held frame is a visible stop, most of all where a
 * marketplace loops the clip, so it only makes up what slowing cannot.
 */
export const maxSlowdown = 1.06

export type LengthenedVideo = {
  bytes: Buffer
  facts: VideoFacts
  /** False when the clip was long enough already and is returned as it was. */
  isChanged: boolean
}

/**
 * A clip at least `minSeconds + marginSeconds` long (by its container's duration), at its own
 * resolution: every frame kept, slowed by up to `maxSlowdown`, then the last frame held for what
 * is still missing. Sound, if it has any, follows at the same pace (pitch kept) and is padded
 * with silence; none is added. H.264 MP4 (yuv420p, faststart, metadata dropped). The result is
 * measured again, and a clip that still came out short is an error rather than a surprise at
 * the marketplace.
 */
export async function lengthenVideo(
  input: string | Buffer,
  floor: { minSeconds: number; marginSeconds: number },
  tools: VideoTools,
): Promise<LengthenedVideo> {
  const target = floor.minSeconds + floor.marginSeconds
  const original = typeof input === 'string' ? await readFile(input) : input
  return withFile(original, tools, async (path) => {
    const before = factsOf(await probeFile(path, tools), original.length)
    if (before.durationSeconds >= target) {
      const { frameRate: _, ...facts } = before
      return { bytes: original, facts, isChanged: false }
    }
    // One frame beyond the target: the container's end is the last frame's start plus its
    // length, which the muxer may round down.
    const aim = target + 1 / before.frameRate
    const factor = Math.min(maxSlowdown, aim / before.durationSeconds)
    const hold = Math.max(0, aim - before.durationSeconds * factor)
    const filters = [`setpts=PTS*${factor.toFixed(6)}`]
    if (hold > 0) filters.push(`tpad=stop_mode=clone:stop_duration=${hold.toFixed(3)}`)
    const output = join(dirname(path), 'lengthened.mp4')
    const audio = before.hasAudio
      ? ['-af', `atempo=${(1 / factor).toFixed(6)},apad`, '-shortest', '-c:a', 'aac', '-b:a', '160k']
      : ['-an']
    await runTool(
      tools.ffmpegPath,
      [
        ...ffmpegHead,
        '-i',
        path,
        '-vf',
        filters.join(','),
        // Every frame at its new time: a fine time base, and no frame dropped or repeated to
        // keep the old rate (which would judder).
        '-fps_mode:v',
        'vfr',
        '-enc_time_base:v',
        '1/90000',
        ...audio,
        ...h264Mp4(output),
      ],
      tools,
    )
    const bytes = await readFile(output)
    const { frameRate: _, ...facts } = factsOf(await probeFile(output, tools), bytes.length)
    if (facts.durationSeconds < target) {
      throw new VideoToolError(
        `the lengthened clip is ${facts.durationSeconds} s, short of ${target} s`,
        'failed',
      )
    }
    return { bytes, facts, isChanged: true }
  })
}

/** What a marketplace's video slot asks of the frame: its ratios and its smallest size. */
export type VideoFrame = { ratios?: readonly Ratio[] | undefined; minResolution?: PixelSize | undefined }

/** How far a clip's ratio may be from a rule's and still count as it (the checker's 2 %). */
const ratioTolerance = 0.02

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2)

/**
 * The canvas a clip of `width`×`height` is framed on for `frame`: the allowed ratio nearest the
 * clip's, as large as the clip needs (the clip is never cropped), then grown as a whole to the
 * smallest size, if the rule has one (long side against long, short against short). Null when the
 * clip fits already.
 */
export function videoCanvas(
  width: number,
  height: number,
  frame: VideoFrame,
): { width: number; height: number; scale: number } | null {
  const ratio = width / height
  const ratios = frame.ratios ?? []
  const fits = (r: Ratio) => Math.abs(ratio / (r.width / r.height) - 1) <= ratioTolerance
  let canvasWidth = width
  let canvasHeight = height
  if (ratios.length > 0 && !ratios.some(fits)) {
    const nearest = [...ratios].sort(
      (a, b) =>
        Math.abs(Math.log(a.width / a.height / ratio)) - Math.abs(Math.log(b.width / b.height / ratio)),
    )[0] as Ratio
    const target = nearest.width / nearest.height
    if (ratio < target) canvasWidth = height * target
    else canvasHeight = width / target
  }
  let scale = 1
  const min = frame.minResolution
  if (min) {
    const long = Math.max(canvasWidth, canvasHeight)
    const short = Math.min(canvasWidth, canvasHeight)
    scale = Math.max(1, Math.max(min.width, min.height) / long, Math.min(min.width, min.height) / short)
  }
  if (canvasWidth === width && canvasHeight === height && scale === 1) return null
  return { width: even(canvasWidth * scale), height: even(canvasHeight * scale), scale }
}

/**
 * The colour of a clip's bars: the median of the outermost pixels of its middle frame, per
 * channel. A studio clip's border is its scene's background (pure white on the white studio), so
 * the bars read as more of that backdrop. Continuing the picture itself was tried and dropped: a
 * mirrored band, or the clip blurred behind itself, repeats the product beside it wherever the
 * product comes near the edge (a studio product fills 88 % of the frame, and the push-in brings
 * it closer), and drawing the edge out sideways is the streaking the image export avoids.
 */
async function borderColour(
  path: string,
  facts: { width: number; height: number; durationSeconds: number },
  tools: VideoTools,
): Promise<string> {
  const still = join(dirname(path), 'middle.png')
  await runTool(
    tools.ffmpegPath,
    [...ffmpegHead, '-ss', (facts.durationSeconds / 2).toFixed(3), '-i', path, '-frames:v', '1', still],
    tools,
  )
  const { data, info } = await sharp(still).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const channels: number[][] = [[], [], []]
  const take = (x: number, y: number) => {
    const o = (y * info.width + x) * 3
    for (let c = 0; c < 3; c++) channels[c]?.push(data[o + c] as number)
  }
  for (let x = 0; x < info.width; x++) {
    take(x, 0)
    take(x, info.height - 1)
  }
  for (let y = 1; y < info.height - 1; y++) {
    take(0, y)
    take(info.width - 1, y)
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
  return channels.map((values) => median(values).toString(16).padStart(2, '0')).join('')
}

/** The filter graph that puts the clip, scaled to `clip`, centred on `canvas` between bars of `colour`. */
function framingGraph(clip: PixelSize, canvas: PixelSize, colour: string): string {
  const x = Math.floor((canvas.width - clip.width) / 4) * 2
  const y = Math.floor((canvas.height - clip.height) / 4) * 2
  return `[0:v]scale=${clip.width}:${clip.height}:flags=lanczos,setsar=1,pad=${canvas.width}:${canvas.height}:${x}:${y}:color=0x${colour},format=yuv420p[out]`
}

/**
 * A clip in a marketplace's video frame: on the canvas `videoCanvas` gives (its nearest allowed
 * ratio, at least its smallest size), the clip whole and centred, letterboxed in its own border's
 * colour (borderColour); sound kept as it is. A clip that fits is returned unchanged. H.264 MP4
 * (yuv420p, faststart, metadata dropped), measured again.
 */
export async function frameVideo(
  input: string | Buffer,
  frame: VideoFrame,
  tools: VideoTools,
): Promise<LengthenedVideo> {
  const original = typeof input === 'string' ? await readFile(input) : input
  return withFile(original, tools, async (path) => {
    const before = factsOf(await probeFile(path, tools), original.length)
    const canvas = videoCanvas(before.width, before.height, frame)
    if (!canvas) {
      const { frameRate: _, ...facts } = before
      return { bytes: original, facts, isChanged: false }
    }
    const clip = {
      width: even(Math.min(canvas.width, before.width * canvas.scale)),
      height: even(Math.min(canvas.height, before.height * canvas.scale)),
    }
    const output = join(dirname(path), 'framed.mp4')
    await runTool(
      tools.ffmpegPath,
      [
        ...ffmpegHead,
        // The clip as shown: a phone's rotation applied before framing.
        '-i',
        path,
        '-filter_complex',
        framingGraph(clip, canvas, await borderColour(path, before, tools)),
        '-map',
        '[out]',
        '-map',
        '0:a?',
        '-c:a',
        'copy',
        ...h264Mp4(output),
      ],
      tools,
    )
    const bytes = await readFile(output)
    const { frameRate: _, ...facts } = factsOf(await probeFile(output, tools), bytes.length)
    return { bytes, facts, isChanged: true }
  })
}
