import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findImports, resolveSpecifier, serverInfrastructure } from './lib/boundaries.ts'

// docs/architecture.md is the map of the code. Its lists (rooms, features and what each uses,
// infrastructure, aliases, entry points) are checked here against the tree, so that a folder,
// feature or script cannot be added, renamed or removed without the map following. Each check
// returns what it finds wrong; the second block shows each one catching a map broken on purpose.

const root = fileURLToPath(new URL('..', import.meta.url))
const mapPath = 'docs/architecture.md'
const maxLines = 160
/** The rooms whose every top-level folder the map names. */
const roomRoots = ['src/server', 'src/web', 'src/shared', 'tests', 'scripts', 'bench', 'drizzle']

const read = (path: string) => readFileSync(join(root, path), 'utf8')
const exists = (path: string) => existsSync(join(root, path))
const folders = (path: string) =>
  readdirSync(join(root, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()

function listFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listFiles(path)
    return [path]
  })
}

const sourceFiles = ['src', 'tests', 'scripts', 'bench', 'docs'].flatMap(listFiles)
const fileNames = new Set(sourceFiles.map((path) => basename(path)))
const packageJson = JSON.parse(read('package.json')) as {
  imports: Record<string, string>
  scripts: Record<string, string>
}

/** Every `code` span of a text. */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string)
}

/** The text under a heading, up to the next heading of any level. */
function section(text: string, heading: string): string {
  const start = text.split('\n').findIndex((line) => line.startsWith(heading))
  if (start < 0) return ''
  const rest = text.split('\n').slice(start + 1)
  const end = rest.findIndex((line) => line.startsWith('#'))
  return rest.slice(0, end < 0 ? rest.length : end).join('\n')
}

/** The cells of a section's table rows, each cell's code spans. */
function tableRows(text: string): string[][][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').slice(1, -1).map(codeSpans))
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort()

function lineCountProblems(map: string): string[] {
  const lines = map.trimEnd().split('\n').length
  return lines > maxLines ? [`${lines} lines, more than ${maxLines}`] : []
}

/**
 * Code spans that name a path: with a slash, from the repository root (a folder or a file); a
 * bare file name must be a file somewhere in the tree. Placeholders, globs, URLs, aliases,
 * packages and commands are not paths.
 */
function missingPaths(map: string): string[] {
  return codeSpans(map).filter((span) => {
    if (/[\s<>*{}():]/.test(span) || /^[#/@.]/.test(span)) return false
    if (span.includes('/')) return !exists(span.replace(/\/$/, ''))
    return /\.(ts|tsx|js|md)$/.test(span) && !fileNames.has(span)
  })
}

/** GitHub's anchor for a heading. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-')
}

/** Links of a document (in docs/ or the root) whose file, or heading, does not exist. */
function brokenLinks(text: string, from: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target))
    .filter((target) => {
      const [file = '', anchor] = target.split('#')
      const path = file ? posix.normalize(posix.join(posix.dirname(from), file)) : from
      if (!exists(path)) return true
      if (anchor === undefined) return false
      const headings = read(path)
        .split('\n')
        .filter((line) => /^#{1,6} /.test(line))
        .map((line) => anchorOf(line.replace(/^#+ /, '')))
      return !headings.includes(anchor)
    })
}

/** Top-level folders of the rooms that the map does not name as a path. */
function unnamedRooms(map: string): string[] {
  const named = new Set(codeSpans(map).map((span) => span.replace(/\/$/, '')))
  return roomRoots
    .flatMap((room) => folders(room).map((folder) => `${room}/${folder}`))
    .filter((path) => !named.has(path))
}

/** Each server feature and the other features its application code imports. */
function featureUses(): Map<string, string[]> {
  const uses = new Map<string, string[]>()
  for (const feature of folders('src/server/features')) {
    const used = sourceFiles
      .filter((path) => path.startsWith(`src/server/features/${feature}/`) && /(?<!\.test)\.tsx?$/.test(path))
      .flatMap((path) =>
        findImports(read(path)).map((imported) => resolveSpecifier(path, imported.specifier) ?? ''),
      )
      .map((target) => /^src\/server\/features\/([^/]+)\//.exec(target)?.[1])
      .filter((other): other is string => other !== undefined && other !== feature)
    uses.set(feature, sorted(used))
  }
  return uses
}

/** Differences between the map's feature table and the features in the tree, with their uses. */
function featureProblems(map: string): string[] {
  const rows = tableRows(section(map, '### Server features'))
  const listed = new Map(rows.map((cells) => [cells[0]?.[0] ?? '', sorted(cells[2] ?? [])]))
  const actual = featureUses()
  return [
    ...[...actual.keys()].filter((f) => !listed.has(f)).map((f) => `feature ${f} is not in the map`),
    ...[...listed.keys()].filter((f) => !actual.has(f)).map((f) => `feature ${f} is not in the tree`),
    ...[...actual]
      .filter(([f, uses]) => listed.has(f) && listed.get(f)?.join() !== uses.join())
      .map(
        ([f, uses]) =>
          `${f} uses ${uses.join(', ') || 'no other feature'}, the map says ${listed.get(f)?.join(', ')}`,
      ),
  ]
}

function webFeatureProblems(map: string): string[] {
  const list = section(map, '### Web features').split('(web.md)):')[1] ?? ''
  const listed = sorted(codeSpans(list))
  const actual = folders('src/web/features')
  return listed.join() === actual.join()
    ? []
    : [`web features ${actual.join(', ')}; the map: ${listed.join(', ')}`]
}

function infrastructureProblems(map: string): string[] {
  const listed = sorted(tableRows(section(map, '### Infrastructure')).map((cells) => cells[0]?.[0] ?? ''))
  const actual = sorted(serverInfrastructure.map((folder) => `src/server/${folder}`))
  return listed.join() === actual.join()
    ? []
    : [`infrastructure ${actual.join(', ')}; the map: ${listed.join(', ')}`]
}

/** Aliases the map names that package.json lacks, and package.json's aliases the map leaves out. */
function aliasProblems(map: string): string[] {
  const named = sorted(codeSpans(map).filter((span) => /^#[\w-]+\/\*$/.test(span)))
  const actual = sorted(Object.keys(packageJson.imports))
  return [
    ...named.filter((alias) => !actual.includes(alias)).map((alias) => `${alias} is not in package.json`),
    ...actual.filter((alias) => !named.includes(alias)).map((alias) => `${alias} is not in the map`),
  ]
}

/** Files the npm scripts run that the map does not name. */
function unnamedEntryPoints(map: string): string[] {
  const named = new Set(codeSpans(map))
  const run = Object.values(packageJson.scripts).flatMap((command) =>
    [...command.matchAll(/(?:^|\s)((?:src|scripts|bench)\/[\w./-]+\.(?:ts|js))/g)].map((m) => m[1] as string),
  )
  return sorted(run).filter((path) => !named.has(path))
}

const map = read(mapPath)

describe('the architecture map (docs/architecture.md)', () => {
  it(`fits on a page: at most ${maxLines} lines`, () => {
    expect(lineCountProblems(map)).toEqual([])
  })

  it('names only folders and files that exist', () => {
    expect(missingPaths(map)).toEqual([])
  })

  it('links only to documents and headings that exist, decision records included', () => {
    expect(map).toMatch(/\]\(decisions\/\d{4}-[\w-]+\.md\)/)
    expect(brokenLinks(map, mapPath)).toEqual([])
  })

  it('names every top-level folder of src/server, src/web, src/shared, tests, scripts, bench and drizzle', () => {
    expect(unnamedRooms(map)).toEqual([])
  })

  it('lists every server feature, each with the features it uses', () => {
    expect(featureProblems(map)).toEqual([])
  })

  it('lists every web feature', () => {
    expect(webFeatureProblems(map)).toEqual([])
  })

  it("lists the boundary checker's infrastructure folders", () => {
    expect(infrastructureProblems(map)).toEqual([])
  })

  it('names the path aliases of package.json "imports", and no other', () => {
    expect(aliasProblems(map)).toEqual([])
  })

  it('names every file an npm script runs', () => {
    expect(unnamedEntryPoints(map)).toEqual([])
  })
})

describe('the docs the map points to', () => {
  it('link only to documents and headings that exist', () => {
    const docs = ['README.md', ...sourceFiles.filter((path) => /^docs\/[^/]+\.md$/.test(path))]
    expect(docs.flatMap((path) => brokenLinks(read(path), path).map((link) => `${path}: ${link}`))).toEqual(
      [],
    )
  })
})

describe('each check of the map fails on a map that is wrong', () => {
  // Each case breaks the real map in one place, found from the map and the tree, not by its wording.
  const without = (text: string, from: string, to = '') => {
    expect(text).toContain(from)
    return text.replaceAll(from, to)
  }
  const rowOf = (heading: string, name: string) =>
    section(map, heading)
      .split('\n')
      .find((line) => line.startsWith(`| \`${name}\` |`)) as string

  it('too long', () => {
    expect(lineCountProblems(`${map}${'\nline'.repeat(maxLines)}`)).not.toEqual([])
  })

  it('a path, or a file name, that does not exist', () => {
    const path = codeSpans(map).find((span) => /^src\/server\/.+\.ts$/.test(span)) as string
    expect(sorted(missingPaths(without(map, `\`${path}\``, `\`${path}x\``)))).toEqual([`${path}x`])
    const name = codeSpans(map).find((span) => /^[\w-]+\.ts$/.test(span)) as string
    expect(sorted(missingPaths(without(map, `\`${name}\``, `\`gone-${name}\``)))).toEqual([`gone-${name}`])
  })

  it('a link to a decision record, or to a heading, that does not exist', () => {
    const record = /decisions\/\d{4}-/.exec(map)?.[0] as string
    expect(brokenLinks(without(map, record, 'decisions/9999-'), mapPath)).not.toEqual([])
    const anchored = /\]\(([\w-]+\.md#[\w-]+)\)/.exec(map)?.[1] as string
    expect(brokenLinks(without(map, anchored, `${anchored}-gone`), mapPath)).toEqual([`${anchored}-gone`])
  })

  it('a room left out', () => {
    const room = `${roomRoots[0]}/${folders(roomRoots[0] as string)[0]}`
    expect(unnamedRooms(without(map, `\`${room}\``, room))).toEqual([room])
  })

  it('a feature left out, or a use that is not there', () => {
    const [feature, uses] = [...featureUses()].find(([, used]) => used.length > 0) as [string, string[]]
    const row = rowOf('### Server features', feature)
    expect(featureProblems(without(map, `${row}\n`))).toEqual([`feature ${feature} is not in the map`])
    const fewer = row.replace(`\`${uses.at(-1)}\``, '')
    expect(featureProblems(without(map, row, fewer))).toHaveLength(1)
  })

  it('a web feature left out', () => {
    const feature = folders('src/web/features').at(-1) as string
    const list = section(map, '### Web features').split('(web.md)):')[1] as string
    expect(webFeatureProblems(without(map, list, list.replace(`\`${feature}\``, '')))).toHaveLength(1)
  })

  it('an infrastructure folder left out', () => {
    const row = rowOf('### Infrastructure', `src/server/${serverInfrastructure[0]}`)
    expect(infrastructureProblems(without(map, `${row}\n`))).toHaveLength(1)
  })

  it('an alias that package.json lacks, or one of its aliases left out', () => {
    const alias = Object.keys(packageJson.imports)[0] as string
    expect(aliasProblems(without(map, `\`${alias}\``, '`#gone/*`'))).toEqual([
      '#gone/* is not in package.json',
      `${alias} is not in the map`,
    ])
  })

  it('an entry point left out', () => {
    const entry = unnamedEntryPoints('')[0] as string
    expect(unnamedEntryPoints(without(map, `\`${entry}\``, 'it'))).toEqual([entry])
  })
})
