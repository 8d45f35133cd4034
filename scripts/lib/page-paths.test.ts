import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appPages } from '#shared/app-pages.ts'
import { publicPages } from '#shared/public-pages.ts'

// The web app's links come from the one route table through `href()` (src/web/lib/href.ts), so
// moving a page is one edit and no link can point at a page that is gone. This keeps it so.

const webRoot = join(import.meta.dirname, '../../src/web')

function sourcesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourcesBelow(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Lines of web code (comments aside) that write a page's path as a string. */
function writtenPagePaths(files: { name: string; text: string }[]): string[] {
  const firstSegments = new Set(
    [...appPages, ...publicPages].map((page) => page.path.split('/')[1]).filter((segment) => segment),
  )
  const literal = new RegExp(`['"\`]/(${[...firstSegments].join('|')})(?=[/'"\`?#])`)
  return files.flatMap(({ name, text }) =>
    text
      .split('\n')
      .map((line, index) => ({ line: line.trim(), where: `${name}:${index + 1}` }))
      .filter(({ line }) => !/^(\*|\/\/|\/\*)/.test(line) && literal.test(line))
      .map(({ where, line }) => `${where}: ${line}`),
  )
}

describe('page paths in the web app', () => {
  it('come from href(), never written out', () => {
    const files = sourcesBelow(webRoot).map((path) => ({
      name: relative(webRoot, path),
      text: readFileSync(path, 'utf8'),
    }))
    expect(files.length).toBeGreaterThan(100)
    expect(writtenPagePaths(files)).toEqual([])
  })

  it('finds a path written out in a link, a navigation or a template', () => {
    const found = writtenPagePaths([
      { name: 'a.tsx', text: '<Link to="/billing">x</Link>' },
      { name: 'b.tsx', text: "navigate('/app/library')" },
      { name: 'c.tsx', text: 'to={`/app/catalogue/` + id}' },
      { name: 'd.tsx', text: '<Link to={href("billing")}>\n/** see `/billing` */' },
    ])
    expect(found.map((line) => line.split(':')[0])).toEqual(['a.tsx', 'b.tsx', 'c.tsx'])
  })
})
