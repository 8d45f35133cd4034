import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator } from '@playwright/test'
import sharp from 'sharp'

// Files for upload tests, made at test time (nothing binary is committed). Each is a
// `{ name, mimeType, buffer }`, which `locator.setInputFiles(file)` takes as it is and
// `dropFile` drops onto an element; `writeTestFile` puts one on disk when a path is needed.
// Made once per worker process and reused.

export type TestFile = { name: string; mimeType: string; buffer: Buffer }

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => {
    made ??= make()
    return made
  }
}

function svg(width: number, height: number, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
  )
}

/** A mug on a plain light backdrop with a soft shadow, as a seller would shoot it. */
const productScene = svg(
  800,
  800,
  `<rect width="800" height="800" fill="#f2f0ec"/>
   <ellipse cx="390" cy="640" rx="210" ry="28" fill="#d8d4cc"/>
   <path d="M540 330 q110 0 110 110 t-110 110" fill="none" stroke="#2f6f8f" stroke-width="34"/>
   <rect x="220" y="250" width="330" height="390" rx="36" fill="#2f6f8f"/>
   <ellipse cx="385" cy="252" rx="165" ry="26" fill="#23546d"/>
   <rect x="262" y="300" width="34" height="290" rx="17" fill="#ffffff" opacity="0.25"/>`,
)

/** product.png: an 800×800 PNG of an object on a plain light backdrop. */
export const productPhotoPng = once(
  async (): Promise<TestFile> => ({
    name: 'product.png',
    mimeType: 'image/png',
    buffer: await sharp(productScene).png().toBuffer(),
  }),
)

/** product.jpg: the same product photo as a JPEG. */
export const productPhotoJpeg = once(
  async (): Promise<TestFile> => ({
    name: 'product.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp(productScene).jpeg({ quality: 88 }).toBuffer(),
  }),
)

/** garment.jpg: a flat-lay T-shirt on a light backdrop, 800×1000, for the fashion tool. */
export const garmentPhoto = once(
  async (): Promise<TestFile> => ({
    name: 'garment.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp(
      svg(
        800,
        1000,
        `<rect width="800" height="1000" fill="#f4f2ee"/>
         <path d="M300 170 L200 210 L110 380 L210 430 L250 360 L250 850 L550 850 L550 360 L590 430 L690 380 L600 210 L500 170 Q400 250 300 170 Z" fill="#b3413b"/>
         <path d="M300 170 Q400 250 500 170" fill="none" stroke="#8c2f2a" stroke-width="14"/>
         <rect x="250" y="560" width="300" height="18" fill="#ffffff" opacity="0.5"/>`,
      ),
    )
      .jpeg({ quality: 88 })
      .toBuffer(),
  }),
)

/** model.jpg: a standing figure in front of a studio wall, 600×900, as the fashion reference. */
export const referenceModelPhoto = once(
  async (): Promise<TestFile> => ({
    name: 'model.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp(
      svg(
        600,
        900,
        `<rect width="600" height="900" fill="#e7e3dc"/>
         <rect y="760" width="600" height="140" fill="#d3cdc3"/>
         <circle cx="300" cy="150" r="62" fill="#c98f6b"/>
         <rect x="278" y="205" width="44" height="40" fill="#c98f6b"/>
         <path d="M205 245 L395 245 L430 520 L375 520 L370 430 L230 430 L225 520 L170 520 Z" fill="#3c3f46"/>
         <rect x="230" y="430" width="140" height="60" fill="#3c3f46"/>
         <rect x="235" y="490" width="58" height="290" fill="#5a5e68"/>
         <rect x="307" y="490" width="58" height="290" fill="#5a5e68"/>`,
      ),
    )
      .jpeg({ quality: 88 })
      .toBuffer(),
  }),
)

/** fake.png: an image name and type over plain text, which the server must refuse by its bytes. */
export function notAnImage(): TestFile {
  return {
    name: 'fake.png',
    mimeType: 'image/png',
    buffer: Buffer.from('This is a text file wearing a .png name, not an image.\n'),
  }
}

/** Bytes in the oversized file: past the 10 MB upload limit. */
export const oversizedBytes = 11 * 1024 * 1024

/** huge.jpg: 11 MB of random bytes under a JPEG name and type, past the upload limit. */
export const oversizedJpeg = once(
  async (): Promise<TestFile> => ({
    name: 'huge.jpg',
    mimeType: 'image/jpeg',
    buffer: randomBytes(oversizedBytes),
  }),
)

const tempDir = once(() => mkdtemp(join(tmpdir(), 'vitrin-e2e-')))

/** Writes the file into this process's temp folder (under its own name) and returns the path. */
export async function writeTestFile(file: TestFile, dir?: string): Promise<string> {
  const folder = dir ?? (await tempDir())
  await mkdir(folder, { recursive: true })
  const path = join(folder, file.name)
  await writeFile(path, file.buffer)
  return path
}

/**
 * Drops files onto an element as a user dragging them from the desktop would: a DataTransfer
 * with real File objects is built in the page, then dragenter, dragover and drop are
 * dispatched on the element with it.
 */
export async function dropFile(target: Locator, files: TestFile | TestFile[]): Promise<void> {
  const list = (Array.isArray(files) ? files : [files]).map((file) => ({
    name: file.name,
    mimeType: file.mimeType,
    base64: file.buffer.toString('base64'),
  }))
  const dataTransfer = await target.page().evaluateHandle((items) => {
    const transfer = new DataTransfer()
    for (const item of items) {
      const binary = atob(item.base64)
      const bytes = new Uint8Array(binary.length)
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
      transfer.items.add(new File([bytes], item.name, { type: item.mimeType }))
    }
    return transfer
  }, list)
  try {
    await target.dispatchEvent('dragenter', { dataTransfer })
    await target.dispatchEvent('dragover', { dataTransfer })
    await target.dispatchEvent('drop', { dataTransfer })
  } finally {
    await dataTransfer.dispose()
  }
}
