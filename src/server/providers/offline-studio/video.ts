import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { type AspectRatio, videoRatioFor, videoSpec } from '#shared/scenes.ts'
import { ProviderError, type VideoRequest, type VideoResult } from '../types.ts'
import { type CameraMove, matchCameraMove } from './scene-match.ts'
import { offlineProviderName, throwIfAborted, withImageInput } from './studio-errors.ts'

// The offline video: ffmpeg's zoompan makes a slow, eased camera move over the still, encoded as
// 8 s of 720p H.264 (yuv420p, faststart, no audio), the format every social network accepts.
// ffmpeg runs without a shell, in its own temporary folder, and is killed on cancel.

const fps = 30
const frameCount = videoSpec.seconds * fps
/** zoompan rounds its crop to whole pixels; working at twice the output size halves the jitter. */
const prescale = 2
/** An idle 2-core machine needs about 2 s; anything near this limit is a hung process. */
const defaultTimeoutMs = 120_000

/** Output pixel size: 720p at the chosen ratio; videos are 1:1 or 9:16 (videoRatioFor: 2:3 is made 9:16). */
export function videoSize(ratio: AspectRatio): { width: number; height: number } {
  return videoRatioFor(ratio) === '9:16'
    ? { width: videoSpec.height, height: 1280 }
    : { width: videoSpec.height, height: videoSpec.height }
}

const moveDescriptions: Record<CameraMove, string> = {
  'push-in': 'slow, smooth camera push-in toward the centre of the image',
  'pull-out': 'slow, smooth camera pull-out from the centre of the image',
  'pan-left': 'slow, smooth camera pan from right to left across the image',
  'pan-right': 'slow, smooth camera pan from left to right across the image',
}

/** The zoompan filter for a move, eased in and out so it starts and stops gently. */
export function cameraFilter(move: CameraMove, width: number, height: number): string {
  const ease = `(1-cos(PI*on/${frameCount - 1}))/2`
  const centreX = 'iw/2-(iw/zoom/2)'
  const centreY = 'ih/2-(ih/zoom/2)'
  const moves: Record<CameraMove, { z: string; x: string; y: string }> = {
    'push-in': { z: `1+0.15*${ease}`, x: centreX, y: centreY },
    'pull-out': { z: `1.15-0.15*${ease}`, x: centreX, y: centreY },
    'pan-left': { z: '1.12', x: `(iw-iw/zoom)*(1-${ease})`, y: centreY },
    'pan-right': { z: '1.12', x: `(iw-iw/zoom)*${ease}`, y: centreY },
  }
  const { z, x, y } = moves[move]
  // Single quotes protect the commas inside the expressions from the filtergraph parser.
  return `zoompan=z='${z}':x='${x}':y='${y}':d=${frameCount}:s=${width}x${height}:fps=${fps},format=yuv420p`
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
      .jpeg({ quality: 92 })
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
    .jpeg({ quality: 92 })
    .toBuffer()
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
}

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
  throwIfAborted(signal)
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'vitrin-video-'))
  try {
    const input = join(dir, 'still.jpg')
    const output = join(dir, 'video.mp4')
    await writeFile(input, still)
    const args = [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-i',
      input,
      '-vf',
      cameraFilter(move, width, height),
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
      output,
    ]
    await runFfmpeg(options.ffmpegPath, args, signal, options.timeoutMs ?? defaultTimeoutMs)
    const bytes = await readFile(output)
    return {
      video: { bytes, mime: 'video/mp4' },
      promptUsed: request.prompt.trim() || `${moveDescriptions[move]} (offline studio, not AI)`,
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
