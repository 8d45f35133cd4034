import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { defaultModelPath, readVerifiedModel } from './model-file.ts'
import { declaredInputShape, declaredSide, withInputSide } from './model-graph.ts'

// The in-memory change of the model's declared input size: the vendored file is never touched,
// and only the declared numbers differ in the copy the runtime loads.

describe('withInputSide', () => {
  it('declares the vendored model at another side, leaving the file and every other byte alone', async () => {
    const model = await readVerifiedModel(defaultModelPath)
    expect(declaredInputShape(model)).toEqual([1, 3, declaredSide, declaredSide])
    const resized = withInputSide(model, 256)
    expect(declaredInputShape(resized)).toEqual([1, 3, 256, 256])
    expect(resized).toHaveLength(model.length)
    let changed = 0
    for (let i = 0; i < model.length; i++) if (model[i] !== resized[i]) changed++
    // The input's two spatial numbers and those of the two outputs declared 320×320 (one byte each,
    // since 320 and 256 share their high byte).
    expect(changed).toBe(6)
    // Still the vendored file on disk: checked again by its SHA-256.
    await expect(readVerifiedModel(defaultModelPath)).resolves.toEqual(await readFile(defaultModelPath))
  })

  it('returns an unchanged copy at the declared side', async () => {
    const model = await readFile(defaultModelPath)
    const copy = withInputSide(model, declaredSide)
    expect(copy).not.toBe(model)
    expect(Buffer.from(copy).equals(model)).toBe(true)
  })

  it('refuses sides it cannot write in place, and files that are not this model', async () => {
    const model = await readFile(defaultModelPath)
    expect(() => withInputSide(model, 100)).toThrow(/from 128 to 16383/)
    expect(() => withInputSide(model, 256.5)).toThrow(/whole number/)
    expect(() => withInputSide(new Uint8Array([0x08, 0x06]), 256)).toThrow(/has no graph/)
    expect(() => withInputSide(model.subarray(0, 4096), 256)).toThrow(/truncated/)
  })
})
