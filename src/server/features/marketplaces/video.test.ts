import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ffprobeBeside, lengthenVideo, maxSlowdown, measureVideo, VideoToolError } from './video.ts'

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
  async function makeClip(name: string, seconds: number, options: { hasAudio?: boolean } = {}) {
    const audio = options.hasAudio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=30',
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

  it('fails with VideoToolError when the tools are missing or the file is no video', async () => {
    await expect(
      measureVideo(clip('eight.mp4'), { ffmpegPath: join(dir, 'no-such-ffmpeg') }),
    ).rejects.toSatisfy((error) => error instanceof VideoToolError && error.reason === 'unavailable')
    await expect(measureVideo(Buffer.from('not a video'), tools)).rejects.toSatisfy(
      (error) => error instanceof VideoToolError && error.reason === 'failed',
    )
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
