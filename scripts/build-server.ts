import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { serverBuild, serverBuildFingerprint } from './lib/builds.js'

// `npm run build` (after the web app), and `npm start` when the server's sources changed: the
// server bundled to JavaScript in dist/server, so that `npm start` runs it with plain Node, with no
// TypeScript loader (docs/decisions/0046-server-built-to-javascript.md). Its entries are the
// server and each worker thread's script; every package stays in node_modules, imported as it
// is. src/server/runtime-files.ts finds the project's files and the workers' scripts from there.

/** Entry name (its file in dist/server) → source. Worker names match their sources' (runtime-files.ts). */
export const serverEntries = {
  main: 'src/server/main.ts',
  'inference-worker': 'src/server/segmentation/inference-worker.ts',
  'ocr-worker': 'src/server/features/marketplaces/ocr-worker.ts',
  'list-reader-worker': 'src/server/features/catalogue/import/list-reader-worker.ts',
  'pglite-thread-worker': 'src/server/db/pglite-thread-worker.ts',
}

/**
 * Packages bundled into the server rather than imported from node_modules at run time: ESM
 * packages of hundreds of files each, which Node would otherwise resolve one by one at every start
 * (for each file, Node 22 parses the package's `exports` again: drizzle-orm's alone is 180 KB),
 * with the packages that import them (one copy of each). Every other package stays in
 * node_modules: native code (sharp, onnxruntime-node), files found beside their modules (PGlite,
 * tesseract.js), and what the server loads only when used (Stripe, exceljs, the S3 client).
 */
export const bundledPackages = [
  'drizzle-orm',
  'better-auth',
  'hono',
  '@hono/node-server',
  '@hono/zod-openapi',
  '@hono/zod-validator',
  'zod',
]

/** The project's dependencies that stay in node_modules, with their subpaths. */
function externalPackages(): string[] {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
    dependencies: Record<string, string>
  }
  return Object.keys(manifest.dependencies)
    .filter((name) => !bundledPackages.includes(name))
    .flatMap((name) => [name, `${name}/*`])
}

/** Bundles the server into `outDir`; how long it took, in ms. */
export async function buildServer(outDir: string): Promise<number> {
  const started = performance.now()
  await build({
    entryPoints: serverEntries,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: externalPackages(),
    // Bundled CommonJS modules may require Node's own modules.
    banner: {
      js: "import { createRequire as __vitrinCreateRequire } from 'node:module'; const require = __vitrinCreateRequire(import.meta.url);",
    },
    // Code the entries share, and what the server loads only when asked (a provider, the
    // offline studio), in chunks of their own, beside the entries: runtime-files.ts counts on
    // every file being directly in dist/server.
    splitting: true,
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  })
  return performance.now() - started
}

/**
 * Builds the server into `outDir` (dist/server unless told), recording the fingerprint of the
 * sources as they were before the build began. It is built beside the last build, then swapped
 * in, so that a server starting meanwhile never finds half a build.
 */
export async function buildServerInto(outDir: string = serverBuild.outDir): Promise<number> {
  const fingerprint = serverBuildFingerprint()
  const building = `${outDir}.building-${process.pid}`
  const previous = `${outDir}.previous-${process.pid}`
  try {
    const ms = await buildServer(building)
    writeFileSync(`${building}/.build-fingerprint`, `${fingerprint}\n`)
    if (existsSync(outDir)) renameSync(outDir, previous)
    renameSync(building, outDir)
    rmSync(previous, { recursive: true, force: true })
    return ms
  } catch (error) {
    rmSync(building, { recursive: true, force: true })
    throw error
  }
}

// `tsx scripts/build-server.ts [--out-dir DIR]`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--out-dir')
  const outDir = at > 0 ? process.argv[at + 1] : undefined
  try {
    const ms = await buildServerInto(outDir)
    console.log(`server built in ${Math.round(ms)} ms`)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}
