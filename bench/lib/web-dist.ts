import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { webBuildFingerprint } from '../../scripts/lib/builds.js'
import { precompressAssets } from '../../scripts/lib/precompress.ts'
import { run } from '../../scripts/lib/run.ts'

const root = join(tmpdir(), 'vitrin-bench-web')

/**
 * A build of the web app that only the benchmarks use, outside dist/ so that an `npm run build`
 * running at the same time cannot empty it mid-measurement. It is kept per source fingerprint
 * (the one `npm start` uses), so it is rebuilt only when the web sources changed.
 */
export async function ensureBenchWebBuild(): Promise<{ dir: string; outcome: 'built' | 'reused' }> {
  const fingerprint = webBuildFingerprint().slice(0, 16)
  const dir = join(root, fingerprint)
  if (existsSync(join(dir, 'index.html'))) return { dir, outcome: 'reused' }

  mkdirSync(root, { recursive: true })
  const building = join(root, `${fingerprint}.building-${process.pid}`)
  const code = await run('npx', [
    'vite',
    'build',
    '--logLevel',
    'warn',
    '--emptyOutDir',
    '--outDir',
    building,
  ])
  if (code !== 0) {
    rmSync(building, { recursive: true, force: true })
    throw new Error(`web build for the benchmarks failed (exit ${code})`)
  }
  // As `npm run build` does, so the server sends the same bytes it would in production.
  precompressAssets(building)
  writeFileSync(join(building, '.build-fingerprint'), `${fingerprint}\n`)
  // Another bench may have finished the same build meanwhile; either copy will do.
  if (existsSync(dir)) rmSync(building, { recursive: true, force: true })
  else renameSync(building, dir)
  // Builds of older sources are of no further use.
  for (const name of readdirSync(root)) {
    if (name !== fingerprint && !name.includes('.building-')) {
      rmSync(join(root, name), { recursive: true, force: true })
    }
  }
  return { dir, outcome: 'built' }
}
