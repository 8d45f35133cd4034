import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ffprobeBeside,
  frameVideo,
  lengthenVideo,
  maxSlowdown,
  measureVideo,
  VideoToolError,
  videoCanvas,
} from './video.ts'

// Real ffmpeg and ffprobe from the PATH (CI installs Debian's). Clips are made here with ffmpeg's
// test source, so their length is known to the frame.

// These tests never touch the database: the PostgreSQL run of the server suite skips them.
const isPostgresRun = process.env.VITRIN_TEST_ENGINE === 'postgres'
const run = promisify(execFile)
const tools = { ffmpegPath: 'ffmpeg' }
const videoTimeout = 120_000

type Probe = {
  streams: { codec_type: string; width?: number; height?: number; nb_frames?: string }[]
  format: { duration: string }
}

/** ffprobe's own answer, independent of the code under test. */
async function probe(path: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    path,
  ])
  return JSON.parse(stdout) as Probe
}

describe.skipIf(isPostgresRun)('marketplace videos', () => {
  let dir: string
  const clip = (name: string) => join(dir, name)

  /** A test-pattern clip of `seconds` at 30 fps, H.264, with a tone when `hasAudio`. */
  async function makeClip(
    name: string,
    seconds: number,
    options: { hasAudio?: boolean; size?: string; source?: string; graph?: string } = {},
  ) {
    const audio = options.hasAudio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      options.graph ?? `${options.source ?? 'testsrc'}=size=${options.size ?? '320x240'}:rate=30`,
      ...audio,
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      ...(options.hasAudio ? ['-c:a', 'aac'] : ['-an']),
      clip(name),
    ])
  }

  /** A QuickTime copy of a clip, shown turned by 90° (a phone's portrait clip stored landscape). */
  async function rotate(input: string, output: string) {
    const copy = ['-c', 'copy', '-f', 'mov', output]
    try {
      // ffmpeg 6 and later.
      await run('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-display_rotation',
        '90',
        '-i',
        input,
        ...copy,
      ])
    } catch {
      // ffmpeg 5 (Debian 12) writes the rotation from the stream's metadata.
      await run('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-i',
        input,
        '-metadata:s:v:0',
        'rotate=90',
        ...copy,
      ])
    }
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'marketplace-video-test-'))
    await Promise.all([
      makeClip('eight.mp4', 8),
      makeClip('short-with-sound.mp4', 7.9, { hasAudio: true }),
      makeClip('five.mp4', 5),
      makeClip('ten.mp4', 10),
      makeClip('landscape.mp4', 2),
      makeClip('square.mp4', 2, { size: '360x360', source: 'mandelbrot' }),
      makeClip('tall.mp4', 1, { size: '360x640', source: 'mandelbrot' }),
      // A studio clip on white whose product reaches near the frame's edges.
      makeClip('white.mp4', 1, {
        graph: 'color=c=white:size=360x360:rate=30,drawbox=x=14:y=40:w=332:h=280:color=red:t=fill',
      }),
    ])
    await rotate(clip('landscape.mp4'), clip('portrait.mov'))
  }, videoTimeout)
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('measures the container: duration, size, bytes, format and sound, from a path or bytes', async () => {
    const fromPath = await measureVideo(clip('eight.mp4'), tools)
    expect(fromPath.durationSeconds).toBeCloseTo(8, 2)
    expect(fromPath).toMatchObject({ width: 320, height: 240, format: 'mp4', hasAudio: false })
    const bytes = await readFile(clip('eight.mp4'))
    expect(fromPath.bytes).toBe(bytes.length)
    expect(await measureVideo(bytes, tools)).toEqual(fromPath)
    expect((await measureVideo(clip('short-with-sound.mp4'), tools)).hasAudio).toBe(true)
  })

  it('reports a QuickTime file as mov, and a rotated clip at the size it is shown', async () => {
    const facts = await measureVideo(clip('portrait.mov'), tools)
    expect(facts).toMatchObject({ format: 'mov', width: 240, height: 320 })
  })

  it(
    'makes an 8.0 s clip at least 8.2 s long, as ffprobe reads it, at its own size, every frame kept, no sound added',
    async () => {
      const result = await lengthenVideo(clip('eight.mp4'), { minSeconds: 8, marginSeconds: 0.2 }, tools)
      expect(result.isChanged).toBe(true)
      const out = clip('eight-long.mp4')
      await writeFile(out, result.bytes)
      const probed = await probe(out)
      const duration = Number(probed.format.duration)
      expect(duration).toBeGreaterThanOrEqual(8.2)
      // Slowed, not padded: well under the 6 % the slowing may take.
      expect(duration).toBeLessThan(8 * maxSlowdown)
      expect(result.facts.durationSeconds).toBeCloseTo(duration, 3)
      const video = probed.streams.filter((s) => s.codec_type === 'video')
      expect(video).toHaveLength(1)
      expect([video[0]?.width, video[0]?.height]).toEqual([320, 240])
      expect(Number(video[0]?.nb_frames)).toBeGreaterThanOrEqual(240)
      expect(probed.streams.some((s) => s.codec_type === 'audio')).toBe(false)
    },
    videoTimeout,
  )

  it(
    'lengthens a clip with sound, keeping the sound as long as the picture',
    async () => {
      const result = await lengthenVideo(
        clip('short-with-sound.mp4'),
        { minSeconds: 8, marginSeconds: 0.2 },
        tools,
      )
      const out = clip('sound-long.mp4')
      await writeFile(out, result.bytes)
      const probed = await probe(out)
      expect(Number(probed.format.duration)).toBeGreaterThanOrEqual(8.2)
      expect(probed.streams.some((s) => s.codec_type === 'audio')).toBe(true)
    },
    videoTimeout,
  )

  it(
    'holds the last frame for what slowing by 6 % cannot make up (5 s to 8.2 s)',
    async () => {
      const result = await lengthenVideo(
        await readFile(clip('five.mp4')),
        { minSeconds: 8, marginSeconds: 0.2 },
        tools,
      )
      const out = clip('five-long.mp4')
      await writeFile(out, result.bytes)
      expect(Number((await probe(out)).format.duration)).toBeGreaterThanOrEqual(8.2)
      expect(result.facts.durationSeconds).toBeGreaterThanOrEqual(8.2)
    },
    videoTimeout,
  )

  it('returns a clip that is long enough already as it was', async () => {
    const bytes = await readFile(clip('ten.mp4'))
    const result = await lengthenVideo(bytes, { minSeconds: 8, marginSeconds: 0.2 }, tools)
    expect(result.isChanged).toBe(false)
    expect(result.bytes.equals(bytes)).toBe(true)
    expect(result.facts.durationSeconds).toBeCloseTo(10, 2)
  })

  /** One frame (at 0.5 s) of a clip, as RGB pixels. */
  async function frameOf(bytes: Buffer, name: string) {
    const path = clip(name)
    await writeFile(path, bytes)
    const png = clip(`${name}.png`)
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-ss',
      '0.5',
      '-i',
      path,
      '-frames:v',
      '1',
      png,
    ])
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  }

  /** A region's mean colour and its spread: the widest range (max − min) of any one channel. */
  function region(
    image: { data: Buffer; width: number },
    box: { left: number; top: number; right: number; bottom: number },
  ) {
    const low = [255, 255, 255]
    const high = [0, 0, 0]
    const sum = [0, 0, 0]
    let count = 0
    for (let y = box.top; y < box.bottom; y++) {
      for (let x = box.left; x < box.right; x++) {
        for (let c = 0; c < 3; c++) {
          const value = image.data[(y * image.width + x) * 3 + c] as number
          low[c] = Math.min(low[c] ?? 255, value)
          high[c] = Math.max(high[c] ?? 0, value)
          sum[c] = (sum[c] ?? 0) + value
        }
        count++
      }
    }
    return {
      spread: Math.max(...high.map((value, c) => value - (low[c] ?? 0))),
      mean: sum.map((value) => Math.round(value / count)),
    }
  }

  it(
    'frames a clip for a rule of another ratio: whole, centred, letterboxed in its border colour, at the smallest size',
    async () => {
      // Amazon's videos: 16:9, at least 1280×720. The studio's clips are 1:1 720×720 or 9:16.
      const amazon = { ratios: [{ width: 16, height: 9 }], minResolution: { width: 1280, height: 720 } }
      const framed = await frameVideo(clip('square.mp4'), amazon, tools)
      expect(framed.isChanged).toBe(true)
      expect(framed.facts).toMatchObject({ width: 1280, height: 720, format: 'mp4', hasAudio: false })
      expect(framed.facts.durationSeconds).toBeCloseTo(2, 1)
      const image = await frameOf(framed.bytes, 'square-framed.mp4')
      // Nothing of the clip is lost: its middle is the clip's middle, scaled 2×.
      const original = await frameOf(await readFile(clip('square.mp4')), 'square-copy.mp4')
      const pixel = (img: typeof image, x: number, y: number) => [
        ...img.data.subarray((y * img.width + x) * 3, (y * img.width + x) * 3 + 3),
      ]
      const centre = pixel(image, 640, 360)
      const source = pixel(original, 180, 180)
      for (let c = 0; c < 3; c++) expect(Math.abs((centre[c] ?? 0) - (source[c] ?? 0))).toBeLessThan(40)
      // The bars are one even colour, the same both sides: no smear of the edge, no copy of the picture.
      const leftBar = region(image, { left: 0, top: 0, right: 270, bottom: 720 })
      const rightBar = region(image, { left: 1010, top: 0, right: 1280, bottom: 720 })
      expect(leftBar.spread).toBeLessThan(8)
      expect(rightBar.mean).toEqual(leftBar.mean)

      // On the white studio the bars are white, though the product comes near the edges.
      const white = await frameOf(
        (await frameVideo(clip('white.mp4'), amazon, tools)).bytes,
        'white-framed.mp4',
      )
      for (const left of [0, 1010]) {
        const bar = region(white, { left, top: 0, right: left + 270, bottom: 720 })
        expect(Math.min(...bar.mean)).toBeGreaterThanOrEqual(250)
        expect(bar.spread).toBeLessThan(8)
      }

      // A 9:16 clip on a 16:9 canvas: narrow, between wide bars.
      const tall = await frameVideo(clip('tall.mp4'), amazon, tools)
      expect([tall.facts.width, tall.facts.height]).toEqual([1280, 720])
      const tallFrame = await frameOf(tall.bytes, 'tall-framed.mp4')
      expect(region(tallFrame, { left: 0, top: 0, right: 400, bottom: 720 }).spread).toBeLessThan(8)

      // A clip that fits is returned as it was.
      const eight = await readFile(clip('eight.mp4'))
      const kept = await frameVideo(eight, { ratios: [{ width: 4, height: 3 }] }, tools)
      expect(kept.isChanged).toBe(false)
      expect(kept.bytes.equals(eight)).toBe(true)
    },
    videoTimeout,
  )

  it('fails with VideoToolError when the tools are missing or the file is no video', async () => {
    await expect(
      measureVideo(clip('eight.mp4'), { ffmpegPath: join(dir, 'no-such-ffmpeg') }),
    ).rejects.toSatisfy((error) => error instanceof VideoToolError && error.reason === 'unavailable')
    await expect(measureVideo(Buffer.from('not a video'), tools)).rejects.toSatisfy(
      (error) => error instanceof VideoToolError && error.reason === 'failed',
    )
  })
})

describe('videoCanvas', () => {
  it('picks the allowed ratio nearest the clip, never crops, and grows to the smallest size', () => {
    const wide = [{ width: 16, height: 9 }]
    expect(videoCanvas(720, 720, { ratios: wide })).toEqual({ width: 1280, height: 720, scale: 1 })
    expect(videoCanvas(720, 720, { ratios: wide, minResolution: { width: 1920, height: 1080 } })).toEqual({
      width: 1920,
      height: 1080,
      scale: 1.5,
    })
    // Portrait and landscape minimums compare long side with long side.
    expect(
      videoCanvas(720, 1280, {
        ratios: [{ width: 9, height: 16 }],
        minResolution: { width: 1280, height: 720 },
      }),
    ).toBeNull()
    expect(
      videoCanvas(720, 1280, {
        ratios: [
          { width: 9, height: 16 },
          { width: 1, height: 1 },
        ],
      }),
    ).toBeNull()
    expect(
      videoCanvas(720, 720, {
        ratios: [
          { width: 9, height: 16 },
          { width: 4, height: 5 },
        ],
      }),
    ).toEqual({
      width: 720,
      height: 900,
      scale: 1,
    })
    expect(videoCanvas(720, 720, {})).toBeNull()
  })
})

describe('ffprobeBeside', () => {
  it('finds ffprobe where ffmpeg is', () => {
    expect(ffprobeBeside('ffmpeg')).toBe('ffprobe')
    expect(ffprobeBeside('/usr/bin/ffmpeg')).toBe('/usr/bin/ffprobe')
    expect(ffprobeBeside('./bin/ffmpeg')).toBe('./bin/ffprobe')
    expect(ffprobeBeside('/opt/ffmpeg-7/bin/ffmpeg')).toBe('/opt/ffmpeg-7/bin/ffprobe')
  })
})
