import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { checkBoundaries, type SourceFile } from './lib/boundaries.ts'

/** `npm run lint` step: fails when an import crosses a boundary of docs/conventions.md. */
function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listSources(path)
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : []
  })
}

// The tree to check: the current folder, or the one named (the linter's own test uses a scratch tree).
const root = process.argv[2] ?? '.'
const files: SourceFile[] = ['src', 'tests', 'bench', 'scripts']
  .map((dir) => join(root, dir))
  .filter((dir) => existsSync(dir))
  .flatMap(listSources)
  .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }))
const violations = checkBoundaries(files)
for (const v of violations) console.error(`${v.file}:${v.line}  '${v.specifier}': ${v.rule}`)
if (violations.length > 0) {
  console.error(`\n${violations.length} import(s) cross a boundary (docs/conventions.md, "Boundaries").`)
  process.exit(1)
}
console.log(`Boundaries: ${files.length} files, every import within the rules.`)
