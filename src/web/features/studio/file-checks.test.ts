import { describe, expect, it } from 'vitest'
import { checkImageFile, maxUploadBytes, sizeInMb } from './file-checks.ts'

function fileOf(type: string, size: number, name = 'photo.png'): File {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

describe('checkImageFile', () => {
  it('accepts PNG, JPEG and WEBP up to 10 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
      expect(checkImageFile(fileOf(type, maxUploadBytes))).toBeNull()
    }
  })

  it('refuses other types, SVG and GIF included, with FILE_TYPE_INVALID', () => {
    for (const type of ['text/plain', 'application/pdf', 'image/svg+xml', 'image/gif', '']) {
      expect(checkImageFile(fileOf(type, 100))).toBe('FILE_TYPE_INVALID')
    }
  })

  it('refuses one byte over 10 MB', () => {
    expect(checkImageFile(fileOf('image/jpeg', maxUploadBytes + 1))).toBe('FILE_TOO_LARGE')
  })
})

describe('sizeInMb', () => {
  it('rounds to one decimal and never shows 0', () => {
    expect(sizeInMb(2.44 * 1024 * 1024)).toBe(2.4)
    expect(sizeInMb(10 * 1024 * 1024)).toBe(10)
    expect(sizeInMb(200)).toBe(0.1)
  })
})
