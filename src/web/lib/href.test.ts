import { describe, expect, it } from 'vitest'
import { appPages } from '#shared/app-pages.ts'
import { publicPages } from '#shared/public-pages.ts'
import { href } from './href.ts'

describe('href', () => {
  it('gives each page its path from the route table', () => {
    expect(href('library')).toBe('/app/library')
    expect(href('signIn')).toBe('/auth/signin')
    expect(href('landing')).toBe('/')
    for (const page of [...appPages, ...publicPages].filter((page) => !page.path.includes(':'))) {
      expect(href(page.key as 'library')).toBe(page.path)
    }
  })

  it('fills a path parameter, encoded as one segment', () => {
    expect(href('catalogueBatch', { id: 'b 1/2' })).toBe('/app/catalogue/b%201%2F2')
  })
})
