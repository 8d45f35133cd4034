import sharp from 'sharp'
import { createLogger } from '#server/logger.ts'
import type { ProviderCallContext, Started } from '../types.ts'

// Helpers for the offline studio's tests and benchmark: decode results and measure them, since
// the tests check outputs by measurement, never by snapshot.

export type Pixels = { data: Buffer; width: number; height: number }

export async function decodePixels(bytes: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/** Mean RGB of a rectangle. */
export function meanColour(image: Pixels, x: number, y: number, w: number, h: number): number[] {
  // Callers compute centres; whole pixels keep the indexing exact.
  const [left, top, width, height] = [x, y, w, h].map((v) => Math.round(v)) as [
    number,
    number,
    number,
    number,
  ]
  const sum = [0, 0, 0]
  for (let y = top; y < top + height; y++) {
    for (let x = left; x < left + width; x++) {
      const i = (y * image.width + x) * 3
      for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (image.data[i + c] as number)
    }
  }
  return sum.map((s) => s / (width * height))
}

/** Bounding box of the pixels `matches` accepts, or null when there are none. */
export function boundsWhere(image: Pixels, matches: (r: number, g: number, b: number) => boolean) {
  let left = image.width
  let top = image.height
  let right = -1
  let bottom = -1
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 3
      if (!matches(image.data[i] as number, image.data[i + 1] as number, image.data[i + 2] as number))
        continue
      left = Math.min(left, x)
      right = Math.max(right, x)
      top = Math.min(top, y)
      bottom = Math.max(bottom, y)
    }
  }
  return right < 0 ? null : { left, top, width: right - left + 1, height: bottom - top + 1 }
}

export function colourDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(...a.map((v, i) => v - (b[i] as number)))
}

/** A call context for direct calls, with logs silenced. */
export function testContext(signal: AbortSignal = new AbortController().signal): ProviderCallContext {
  return { signal, log: createLogger({ level: 'silent' }) }
}

/** The result of a provider call that must finish at once. */
export function doneResult<T>(started: Started<T>): T {
  if (started.kind !== 'done') throw new Error('the offline studio queued work')
  return started.result
}
