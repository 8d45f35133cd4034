import { describe, expect, it } from 'vitest'
import { isAppPath } from './app-pages.ts'

describe('isAppPath', () => {
  it("knows the app's pages, a parameter standing for exactly one segment, a trailing slash allowed", () => {
    for (const path of [
      '/app',
      '/app/',
      '/app/create',
      '/app/catalogue/b_123',
      '/settings',
      '/billing/success',
    ])
      expect(isAppPath(path), path).toBe(true)
  })

  it('refuses anything else, near misses included', () => {
    for (const path of [
      '/',
      '/pricing',
      '/app/nowhere',
      '/app//',
      '/app/catalogue/a/b',
      '/tr/app',
      '/settingsx',
      '/billing/success/again',
    ])
      expect(isAppPath(path), path).toBe(false)
  })
})
