import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from './run.ts'

const inputs = [
  'src/web',
  'src/shared',
  'scripts/build.ts',
  'scripts/lib/prerender.ts',
  'scripts/lib/og-image.ts',
  'scripts/lib/preview-images.ts',
  'scripts/lib/precompress.ts',
  'vite.config.ts',
  'package-lock.json',
  'tsconfig.json',
]
const outDir = 'dist/web'
const stampFile = join(outDir, '.build-fingerprint')

function listFiles(path: string): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) => listFiles(join(path, entry.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file))
}

/** A hash of everything the web build reads; equal hashes mean the last build is still good. */
export function webBuildFingerprint(): string {
  const hash = createHash('sha256')
  for (const file of inputs.flatMap(listFiles).sort()) {
    hash.update(file).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

/** Builds the web app unless the existing build came from the same sources. */
export async function ensureWebBuild(): Promise<'reused' | 'built'> {
  const fingerprint = webBuildFingerprint()
  const isCurrent =
    existsSync(join(outDir, 'index.html')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8').trim() === fingerprint
  if (isCurrent) return 'reused'
  const code = await run('tsx', ['scripts/build.ts'], { forwardSignals: true })
  if (code !== 0) throw new Error(`web build failed (exit ${code})`)
  writeFileSync(stampFile, `${fingerprint}\n`)
  return 'built'
}
