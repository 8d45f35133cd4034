import { posix } from 'node:path'

/**
 * The import rules of docs/conventions.md ("Boundaries"), as code. `npm run lint` runs them over
 * the tree; the rules here and the list in conventions.md are kept word for word alike.
 */

export type SourceFile = { path: string; text: string }
export type Violation = { file: string; line: number; specifier: string; rule: string }

type Import = { specifier: string; line: number; isTypeOnly: boolean }

const aliases: Record<string, string> = {
  '#shared/': 'src/shared/',
  '#server/': 'src/server/',
  '#web/': 'src/web/',
  '#tests/': 'tests/',
  '#docs/': 'docs/',
}

/** Server folders that serve features and never reach into one (docs/architecture.md lists them too). */
export const serverInfrastructure = [
  'auth',
  'crypto',
  'db',
  'email',
  'events',
  'http',
  'job-queue',
  'net',
  'plans',
  'providers',
  'rate-limit',
  'segmentation',
  'storage',
]
/** Server files at the root that are infrastructure too (the rest compose the app). */
const serverRootInfrastructure = [
  'config.ts',
  'logger.ts',
  'i18n.ts',
  'private-dir.ts',
  'secret.ts',
  'runtime-files.ts',
]

const importPattern =
  /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^'\n]+)'|import\(\s*'([^'\n]+)'\s*\)|vi\.mock\(\s*'([^'\n]+)'/g

/** Every module specifier a file names, with whether the import is erased at compile time. */
export function findImports(text: string): Import[] {
  const found: Import[] = []
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[3] ?? match[4] ?? match[5]
    if (!specifier) continue
    const offset = (match.index ?? 0) + match[0].indexOf(specifier)
    const line = text.slice(0, offset).split('\n').length
    found.push({ specifier, line, isTypeOnly: match[2] !== undefined })
  }
  return found
}

/** The repository-relative file an import names, or null for a package. */
export function resolveSpecifier(from: string, specifier: string): string | null {
  for (const [alias, target] of Object.entries(aliases)) {
    if (specifier.startsWith(alias)) return target + specifier.slice(alias.length)
  }
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    return posix.normalize(posix.join(posix.dirname(from), specifier))
  }
  return null
}

/**
 * The unit a file belongs to: a feature folder, a web `components/<group>` folder, or the first
 * folder under a source root (bench and scripts are one unit each). Relative imports stay inside a
 * unit; leaving it for src or tests takes an alias.
 */
export function unitOf(path: string): string {
  const root = ['src/shared', 'src/server', 'src/web', 'tests', 'bench', 'scripts'].find(
    (r) => path === r || path.startsWith(`${r}/`),
  )
  if (!root) return path
  if (root === 'bench' || root === 'scripts') return root
  const parts = path.slice(root.length + 1).split('/')
  if (parts.length === 1) return root
  if ((parts[0] === 'features' || parts[0] === 'components') && parts.length > 2)
    return `${root}/${parts[0]}/${parts[1]}`
  return `${root}/${parts[0]}`
}

function webFeatureOf(path: string): string | null {
  return /^src\/web\/features\/([^/]+)\//.exec(path)?.[1] ?? null
}

function serverFeatureOf(path: string): string | null {
  return /^src\/server\/features\/([^/]+)\//.exec(path)?.[1] ?? null
}

function isTest(path: string): boolean {
  return /\.test\.tsx?$/.test(path)
}

function isServerInfrastructure(path: string): boolean {
  if (!path.startsWith('src/server/')) return false
  const rest = path.slice('src/server/'.length)
  if (!rest.includes('/')) return serverRootInfrastructure.includes(rest)
  return serverInfrastructure.includes(rest.split('/')[0] ?? '')
}

/** The rule an import breaks, or null when it is allowed. */
export function ruleBroken(from: string, imported: Import): string | null {
  const target = resolveSpecifier(from, imported.specifier)
  if (target === null) return null
  const isRelative = imported.specifier.startsWith('.')
  const sameUnit = unitOf(from) === unitOf(target)

  const hasAlias = Object.values(aliases).some((root) => target.startsWith(root))
  if (isRelative && !sameUnit && hasAlias)
    return 'an import that leaves its folder uses an alias (#shared, #server, #web, #tests, #docs)'
  if (!isRelative && sameUnit && from.startsWith('src/')) return 'an import inside one folder is relative'

  if (target.startsWith('tests/') && from.startsWith('src/') && !isTest(from))
    return 'application code never imports test code'

  if (from.startsWith('src/shared/') && !target.startsWith('src/shared/')) return 'shared imports only shared'

  if (from.startsWith('src/web/')) {
    if (target.startsWith('src/server/') && !imported.isTypeOnly)
      return 'web imports server types only (import type)'
    const fromFeature = webFeatureOf(from)
    const toFeature = webFeatureOf(target)
    if (fromFeature && target.startsWith('src/web/app/')) return 'a web feature never imports pages'
    if (fromFeature && toFeature && fromFeature !== toFeature)
      return 'a web feature imports lib, components and shared only, never another feature'
    if (
      (from.startsWith('src/web/components/') || from.startsWith('src/web/lib/')) &&
      (toFeature || target.startsWith('src/web/app/'))
    )
      return 'components and lib never import features or pages'
  }

  if (from.startsWith('src/server/')) {
    if (target.startsWith('src/web/')) return 'the server never imports web code'
    const toFeature = serverFeatureOf(target)
    if (toFeature && isServerInfrastructure(from))
      return 'infrastructure (db, http, storage, events, providers …) never imports a feature'
    const fromFeature = serverFeatureOf(from)
    // The public API (/v1) and the test hooks are routes over the features, as a feature's are.
    const reachesFeatures = fromFeature !== null || /^src\/server\/(v1|test-hooks)\//.test(from)
    if (toFeature && reachesFeatures && toFeature !== fromFeature && !/\.service\.ts$/.test(target))
      return "a server feature, /v1 or the test hooks reach another feature only through that feature's *.service.ts"
    if (
      fromFeature &&
      !isTest(from) &&
      (/^src\/server\/(jobs|v1|test-hooks)\//.test(target) ||
        /^src\/server\/(app|deps|services|main|worker-main)\.ts$/.test(target))
    )
      return 'a server feature never imports the worker, /v1, the test hooks or the app that composes them'
  }
  return null
}

export const cycleRule = 'folders never import each other in a circle'

/**
 * The folder a file counts in for the no-circle rule: its unit, except that files directly in a
 * source root (`src/server/app.ts`, `src/shared/plans.ts` …) each stand alone, since a root holds
 * both what composes everything and what everything uses.
 */
function cycleUnitOf(path: string): string {
  const unit = unitOf(path)
  return /^src\/(server|shared|web)$/.test(unit) ? path : unit
}

/**
 * Circles between folders in application code (tests may import freely): every strongly
 * connected set of folders of the import graph (Tarjan), each given as the imports that close it.
 * Type-only imports count: a circle of types is still two folders that must change together.
 */
export function findFolderCycles(files: SourceFile[]): Violation[] {
  const edges = new Map<string, Map<string, { file: string; line: number; specifier: string }>>()
  for (const file of files) {
    if (!file.path.startsWith('src/') || isTest(file.path)) continue
    const from = cycleUnitOf(file.path)
    for (const imported of findImports(file.text)) {
      const target = resolveSpecifier(file.path, imported.specifier)
      if (target === null || !target.startsWith('src/')) continue
      const to = cycleUnitOf(target)
      if (to === from) continue
      const out = edges.get(from) ?? new Map()
      edges.set(from, out)
      if (!out.has(to)) out.set(to, { file: file.path, line: imported.line, specifier: imported.specifier })
    }
  }
  const index = new Map<string, number>()
  const lowest = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    lowest.set(node, index.get(node) as number)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) visit(next)
      if (onStack.has(next))
        lowest.set(node, Math.min(lowest.get(node) as number, lowest.get(next) as number))
    }
    if (lowest.get(node) !== index.get(node)) return
    const members: string[] = []
    let member: string | undefined
    do {
      member = stack.pop() as string
      onStack.delete(member)
      members.push(member)
    } while (member !== node)
    if (members.length > 1) circles.push(members)
  }
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node)
  return circles.flatMap((members) =>
    members
      .sort()
      .flatMap((from) =>
        [...(edges.get(from) ?? [])]
          .filter(([to]) => members.includes(to))
          .map(([to, at]) => ({ ...at, rule: `${cycleRule}: ${from} → ${to} (${members.join(', ')})` })),
      ),
  )
}

export function checkBoundaries(files: SourceFile[]): Violation[] {
  const violations: Violation[] = []
  for (const file of files) {
    for (const imported of findImports(file.text)) {
      const rule = ruleBroken(file.path, imported)
      if (rule) violations.push({ file: file.path, line: imported.line, specifier: imported.specifier, rule })
    }
  }
  return [...violations, ...findFolderCycles(files)]
}
