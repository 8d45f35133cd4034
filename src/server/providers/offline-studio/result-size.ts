import { type AspectRatio, imageSize } from '#shared/scenes.ts'

// The size a product result is composed at (decision 43): as large as the product's own pixels
// allow, from the ratio's standard size (imageSize, which every marketplace minimum is met by)
// up to 2048 px on the long side, in a few fixed steps so rendered scenes are reused.

/** Longest side of any result. */
export const maxResultSide = 2048

/** A step between the standard size and the largest, for ratios whose standard size is far below it (1:1). */
const middleSide = 1536

/** The sizes a ratio's results come in, smallest (imageSize) first, all of the same shape. */
export function resultSizes(ratio: AspectRatio): { width: number; height: number }[] {
  const standard = imageSize[ratio]
  const standardSide = Math.max(standard.width, standard.height)
  const sizes = [standard]
  for (const side of [middleSide, maxResultSide]) {
    if (side <= standardSide) continue
    const factor = side / standardSide
    sizes.push({ width: Math.round(standard.width * factor), height: Math.round(standard.height * factor) })
  }
  return sizes
}

/** Rounding slack: a product drawn 1 % larger than its pixels is not enlarged to the eye. */
const enlargementSlack = 1.01

/**
 * The largest of the ratio's sizes at which the product is not drawn larger than its own pixels,
 * given how much it is enlarged at the standard size (its drawn width over its cut's width);
 * the standard size when even that enlarges it.
 */
export function resultSizeFor(
  ratio: AspectRatio,
  enlargementAtStandard: number,
): { width: number; height: number } {
  const sizes = resultSizes(ratio)
  const standard = sizes[0] as { width: number; height: number }
  let chosen = standard
  for (const size of sizes) {
    const factor = Math.max(size.width, size.height) / Math.max(standard.width, standard.height)
    if (enlargementAtStandard * factor <= enlargementSlack) chosen = size
  }
  return chosen
}
