import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { projectFile } from '#server/runtime-files.ts'

// The vendored U²-Netp weights (assets/models/README.md says where they come from). The file is
// checked byte for byte before it is used: a truncated clone, a Git LFS pointer or an edited file
// would otherwise load as a different model, or crash inside the runtime halfway through a job.

/** The model file shipped in the repository. */
export const defaultModelPath = projectFile('assets/models/u2netp.onnx')

/** SHA-256 of assets/models/u2netp.onnx (4,574,861 bytes), as published with rembg's u2netp.onnx. */
export const modelSha256 = '309c8469258dda742793dce0ebea8e6dd393174f89934733ecc8b14c76f4ddd8'

/** Why the model cannot be used; the message says what to do about it. */
export class SegmentationModelError extends Error {
  readonly path: string
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SegmentationModelError'
    this.path = path
  }
}

const restoreHint = 'Restore it from the repository (git checkout -- assets/models/u2netp.onnx).'

/** Reads the model file and checks its SHA-256; throws SegmentationModelError otherwise. */
export async function readVerifiedModel(path: string, expectedSha256 = modelSha256): Promise<Buffer> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const what = code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? 'unknown error'})`
    throw new SegmentationModelError(
      path,
      `The offline studio's segmentation model ${what}: ${path}. ${restoreHint}`,
      { cause: error },
    )
  }
  const actual = createHash('sha256').update(bytes).digest('hex')
  if (actual !== expectedSha256) {
    throw new SegmentationModelError(
      path,
      `The offline studio's segmentation model at ${path} is not the expected file ` +
        `(SHA-256 ${actual}, ${bytes.length} bytes; expected ${expectedSha256}). ${restoreHint}`,
    )
  }
  return bytes
}
