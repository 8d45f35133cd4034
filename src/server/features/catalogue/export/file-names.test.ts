import { describe, expect, it } from 'vitest'
import { createFolderNames, extensionFor, maxFolderNameChars, safeFolderName } from './file-names.ts'

describe('export folder names', () => {
  it.each([
    ['KRM-001', 'KRM-001'],
    ['İpek Şal Ğ', 'İpek Şal Ğ'],
    ['../x', '__x'],
    ['..', '_'],
    ['a/b', 'a_b'],
    ['a\\b', 'a_b'],
    ['C:evil', 'C_evil'],
    ['x*?"<>|y', 'x______y'],
    ['a..b', 'a_b'],
    ['.hidden', 'hidden'],
    ['trailing. ', 'trailing'],
    ['CON', '_CON'],
    ['con', '_con'],
    ['LPT1', '_LPT1'],
    ['nul.tar.gz', '_nul.tar.gz'],
    ['CONSOLE', 'CONSOLE'],
    ['tab\there', 'tab_here'],
    ['gpj\u202Eexe', 'gpj_exe'],
    ['-rf', '_-rf'],
    ['=1', '_=1'],
    ['', 'line-7'],
    ['   ', 'line-7'],
  ])('%j → %j', (sku, expected) => {
    expect(safeFolderName(sku, 7)).toBe(expected)
  })

  it('caps the length by characters, never splitting one', () => {
    const name = safeFolderName(`${'ğ'.repeat(maxFolderNameChars - 1)}😀😀`, 2)
    expect(Array.from(name)).toHaveLength(maxFolderNameChars)
    expect(name.endsWith('😀')).toBe(true)
    // No lone surrogate left by the cut.
    expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)
  })

  it('makes names unique without regard to case, also against later real SKUs', () => {
    const names = createFolderNames()
    expect(['A', 'a', 'A-2', 'A', '', ''].map((sku, i) => names.take(sku, i + 2))).toEqual([
      'A',
      'a-2',
      'A-2-2',
      'A-3',
      'line-6',
      'line-7',
    ])
  })
})

describe('export file extensions', () => {
  it('follows the stored type, and says bin for one it does not know', () => {
    expect(extensionFor('image/jpeg')).toBe('jpg')
    expect(extensionFor('IMAGE/PNG')).toBe('png')
    expect(extensionFor('video/mp4; codecs="avc1"')).toBe('mp4')
    expect(extensionFor('application/x-evil')).toBe('bin')
  })
})
