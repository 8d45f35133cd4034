import { execFile } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { AspectRatio } from '#shared/scenes.ts'
import { ProviderError, type VideoRequest } from '../types.ts'
import { createOfflineStudio } from './index.ts'
import { doneResult, testContext } from './measure.ts'

const ffmpegPath = '/usr/bin/ffmpeg'
const ffprobePath = '/usr/bin/ffprobe'
const run = promisify(execFile)
// Encoding takes about 2 s on an idle 2-core machine; a busy one can take several times that.
const videoTimeout = 120_000

type ProbeStream = {
  codec_type: string
  codec_name: string
  width?: number
  height?: number
  pix_fmt?: string
}
type Probe = { streams: ProbeStream[]; format: { duration: string; format_name: string } }

async function probe(bytes: Buffer, dir: string): Promise<Probe> {
  const file = join(dir, `probe-${Date.now()}-${Math.random().toString(36).slice(2)}.mp4`)
  await writeFile(file, bytes)
  const { stdout } = await run(ffprobePath, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ])
  return JSON.parse(stdout) as Probe
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ProviderError) return error
    throw error
  }
  throw new Error('expected the call to fail')
}

describe('offline studio: video', () => {
  let dir: string
  let workDir: string
  let still1x1: Buffer
  let still9x16: Buffer
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'offline-video-test-'))
    workDir = join(dir, 'work')
    await mkdir(workDir)
    const still = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: '#e8e4de' } })
        .composite([
          {
            input: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="${width * 0.35}" y="${height * 0.3}" width="${width * 0.3}" height="${height * 0.4}" rx="20" fill="#b8641c"/></svg>`,
            ),
          },
        ])
        .jpeg()
        .toBuffer()
    still1x1 = await still(1080, 1080)
    still9x16 = await still(1080, 1920)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  function request(image: Buffer, aspectRatio: AspectRatio, prompt = ''): VideoRequest {
    return { image: { bytes: image, mime: 'image/jpeg' }, prompt, aspectRatio }
  }

  it.each([
    ['9:16', 720, 1280],
    ['1:1', 720, 720],
  ] as const)(
    'makes an 8-second, %s 720p, H.264 yuv420p MP4 with no audio stream',
    async (ratio, width, height) => {
      const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath })
      const image = ratio === '9:16' ? still9x16 : still1x1
      const result = doneResult(await studio.startVideo(request(image, ratio), testContext()))
      expect(result.video.mime).toBe('video/mp4')
      const info = await probe(result.video.bytes, dir)
      expect(info.format.format_name).toContain('mp4')
      expect(Number(info.format.duration)).toBeGreaterThanOrEqual(7.9)
      expect(Number(info.format.duration)).toBeLessThanOrEqual(8.1)
      expect(info.streams).toHaveLength(1)
      expect(info.streams.some((s) => s.codec_type === 'audio')).toBe(false)
      const [video] = info.streams
      expect(video).toMatchObject({
        codec_type: 'video',
        codec_name: 'h264',
        width,
        height,
        pix_fmt: 'yuv420p',
      })
      // faststart puts the index (moov) before the media data (mdat).
      const head = result.video.bytes.subarray(0, 4096).toString('latin1')
      expect(head.indexOf('moov')).toBeGreaterThan(-1)
      expect(head.indexOf('moov')).toBeLessThan(Math.max(head.indexOf('mdat'), 4096))
      expect(result.promptUsed).toMatch(/camera push-in/)
      expect(result.promptUsed).not.toMatch(/360/)
      // Every working folder is gone once the call returns.
      expect(await readdir(workDir)).toEqual([])
    },
    videoTimeout,
  )

  it(
    'moves the product against its scene: the product grows more than the wall behind it (parallax)',
    async () => {
      // Thin dark posts along the top of the wall, and the product (a brown box) in the middle.
      const size = 1080
      const posts = Array.from(
        { length: 9 },
        (_, i) => `<rect x="${(i + 1) * 108 - 4}" y="40" width="8" height="200" fill="#3a3a3a"/>`,
      ).join('')
      const still = await sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="${size}" height="${size}" fill="#e8e4de"/>${posts}<rect x="400" y="460" width="280" height="360" rx="20" fill="#b8641c"/></svg>`,
        ),
      )
        .jpeg()
        .toBuffer()
      const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath })
      const result = doneResult(await studio.startVideo(request(still, '1:1'), testContext()))
      expect(result.promptUsed).toMatch(/push-in.*against its scene.*light sweep/)
      const file = join(dir, 'parallax.mp4')
      await writeFile(file, result.video.bytes)
      const frameAt = async (seconds: number) => {
        const png = join(dir, `frame-${seconds}.png`)
        await run(ffmpegPath, [
          '-v',
          'error',
          '-y',
          '-ss',
          String(seconds),
          '-i',
          file,
          '-frames:v',
          '1',
          png,
        ])
        const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
        return { data, width: info.width, height: info.height }
      }
      // The wall's scale: the span from the first post to the last along a row through them.
      const wallSpan = (frame: { data: Buffer; width: number }, y: number) => {
        const dark: number[] = []
        for (let x = 0; x < frame.width; x++) {
          if ((frame.data[(y * frame.width + x) * 3] as number) < 110) dark.push(x)
        }
        return (dark.at(-1) ?? 0) - (dark[0] ?? 0)
      }
      // The product's scale: its width, where it is brown.
      const productWidth = (frame: { data: Buffer; width: number; height: number }) => {
        let left = frame.width
        let right = -1
        for (let i = 0; i < frame.width * frame.height; i++) {
          const r = frame.data[i * 3] as number
          const g = frame.data[i * 3 + 1] as number
          if (r < g + 40 || r < 120) continue
          const x = i % frame.width
          left = Math.min(left, x)
          right = Math.max(right, x)
        }
        return right - left
      }
      const first = await frameAt(0)
      const last = await frameAt(7.9)
      // The posts sit at 40–240 of 1080 (1/4.5 of the frame's 720 px: rows 27–160); row 90 crosses them all.
      const wallGrowth = wallSpan(last, 90) / wallSpan(first, 90)
      const productGrowth = productWidth(last) / productWidth(first)
      expect(wallGrowth).toBeGreaterThan(1.02)
      expect(productGrowth / wallGrowth).toBeGreaterThan(1.07)
    },
    videoTimeout,
  )

  it(
    'keeps the whole image when its ratio differs from the video, and passes the prompt through',
    async () => {
      const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath })
      const result = doneResult(
        await studio.startVideo(request(still1x1, '9:16', 'sola doğru kaydır'), testContext()),
      )
      const info = await probe(result.video.bytes, dir)
      expect(info.streams[0]).toMatchObject({ width: 720, height: 1280 })
      expect(result.promptUsed).toBe('sola doğru kaydır')
    },
    videoTimeout,
  )

  it(
    'kills ffmpeg when the request is aborted and rejects with canceled',
    async () => {
      // A stand-in for ffmpeg that records its process id, then becomes the real ffmpeg.
      const pidFile = join(dir, 'ffmpeg.pid')
      const wrapper = join(dir, 'ffmpeg-wrapper.sh')
      await writeFile(wrapper, `#!/bin/sh\necho $$ > "${pidFile}"\nexec ${ffmpegPath} "$@"\n`)
      await chmod(wrapper, 0o755)
      const studio = createOfflineStudio({
        segmenter: sharedSegmenter(),
        ffmpegPath: wrapper,
        tempDir: workDir,
      })
      const controller = new AbortController()
      const pending = studio.startVideo(request(still9x16, '9:16'), testContext(controller.signal))
      const pid = await vi.waitFor(
        async () => {
          const text = await readFile(pidFile, 'utf8')
          const value = Number(text.trim())
          if (!Number.isInteger(value) || value <= 0) throw new Error('no pid yet')
          return value
        },
        { timeout: 60_000, interval: 20 },
      )
      controller.abort()
      const error = await failureOf(pending)
      expect(error.failure).toBe('canceled')
      expect(() => process.kill(pid, 0)).toThrow()
      // Every working folder is gone once the call returns.
      expect(await readdir(workDir)).toEqual([])
    },
    videoTimeout,
  )

  it('rejects at once with canceled when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath })
    const error = await failureOf(studio.startVideo(request(still1x1, '1:1'), testContext(controller.signal)))
    expect(error.failure).toBe('canceled')
  })

  it('maps a missing ffmpeg to unavailable', async () => {
    const studio = createOfflineStudio({
      segmenter: sharedSegmenter(),
      ffmpegPath: join(dir, 'no-such-ffmpeg'),
    })
    const error = await failureOf(studio.startVideo(request(still1x1, '1:1'), testContext()))
    expect(error.failure).toBe('unavailable')
    expect(error.provider).toBe('offline')
  })

  it('maps an ffmpeg failure to unavailable, with stderr in the cause and not in the message', async () => {
    const failing = join(dir, 'ffmpeg-fails.sh')
    await writeFile(failing, '#!/bin/sh\necho "secret-looking detail: encoder exploded" >&2\nexit 1\n')
    await chmod(failing, 0o755)
    const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: failing })
    const error = await failureOf(studio.startVideo(request(still1x1, '1:1'), testContext()))
    expect(error.failure).toBe('unavailable')
    expect(error.message).not.toContain('encoder exploded')
    expect(JSON.stringify(error.cause)).toContain('encoder exploded')
  })

  it('gives up on a hung ffmpeg with timeout', async () => {
    const hanging = join(dir, 'ffmpeg-hangs.sh')
    await writeFile(hanging, '#!/bin/sh\nexec sleep 30\n')
    await chmod(hanging, 0o755)
    const studio = createOfflineStudio({
      segmenter: sharedSegmenter(),
      ffmpegPath: hanging,
      videoTimeoutMs: 300,
    })
    const error = await failureOf(studio.startVideo(request(still1x1, '1:1'), testContext()))
    expect(error.failure).toBe('timeout')
  })

  it('refuses an unreadable image', async () => {
    const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath })
    const error = await failureOf(studio.startVideo(request(Buffer.from('nope'), '1:1'), testContext()))
    expect(error.failure).toBe('rejected')
  })

  it('never queues', async () => {
    const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath })
    expect((await failureOf(studio.resumeVideo('x', testContext()))).failure).toBe('unavailable')
  })
})
