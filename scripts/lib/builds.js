// @ts-check
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// The two builds `npm start` needs, the web app (dist/web) and the server (dist/server), each
// kept while its sources are unchanged: a build records the fingerprint of what it read, and a
// start compares. Plain JavaScript, because scripts/start.js runs it with plain Node before
// anything is built; the builds themselves run in child processes, which end with them.

/**
 * @typedef {object} Build
 * @property {string} name what the start prints ("web app", "server")
 * @property {string[]} inputs the files and folders the build reads (tests left out)
 * @property {string} outDir
 * @property {string} entry a file of outDir that a finished build has
 * @property {string} script the script that builds it (TypeScript, run under tsx)
 * @property {boolean} writesStamp whether the script records the fingerprint itself
 */

/** @type {Build} */
export const webBuild = {
  name: 'web app',
  inputs: [
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
  ],
  outDir: 'dist/web',
  entry: 'index.html',
  script: 'scripts/build.ts',
  writesStamp: false,
}

/** @type {Build} */
export const serverBuild = {
  name: 'server',
  inputs: [
    'src/server',
    'src/shared',
    'scripts/build-server.ts',
    'scripts/lib/builds.js',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
  ],
  outDir: 'dist/server',
  entry: 'main.js',
  script: 'scripts/build-server.ts',
  writesStamp: true,
}

/** @param {string} path @returns {string[]} */
function listFiles(path) {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) => listFiles(join(path, entry.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file))
}

/**
 * A hash of everything a build reads; equal hashes mean the last build is still good.
 * @param {Build} build
 */
export function buildFingerprint(build) {
  const hash = createHash('sha256')
  for (const file of build.inputs.flatMap(listFiles).sort()) {
    hash.update(file).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex')
}

export const webBuildFingerprint = () => buildFingerprint(webBuild)
export const serverBuildFingerprint = () => buildFingerprint(serverBuild)

/** @param {Build} build */
const stampFile = (build) => join(build.outDir, '.build-fingerprint')

/**
 * Whether the build in outDir came from these sources.
 * @param {Build} build
 * @param {string} fingerprint
 */
export function isBuildCurrent(build, fingerprint) {
  const stamp = stampFile(build)
  return (
    existsSync(join(build.outDir, build.entry)) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === fingerprint
  )
}

/**
 * Runs a build script in a child process (Node with the tsx loader) with inherited output; its
 * exit code. A SIGINT or SIGTERM this process gets meanwhile is passed on to it.
 * @param {string} script
 * @returns {Promise<number>}
 */
function runBuildScript(script) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' })
    /** @param {NodeJS.Signals} signal */
    const forward = (signal) => child.kill(signal)
    process.on('SIGINT', forward)
    process.on('SIGTERM', forward)
    /** @param {number} code */
    const done = (code) => {
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      resolve(code)
    }
    child.on('error', () => done(127))
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)))
  })
}

/**
 * Builds what is not current, one build at a time, each in its own process. Says, for each,
 * whether it was built (and in how long) or reused.
 * @param {(line: string) => void} say
 */
export async function ensureBuilds(say) {
  for (const build of [webBuild, serverBuild]) {
    const fingerprint = buildFingerprint(build)
    if (isBuildCurrent(build, fingerprint)) {
      say(`${build.name} unchanged since the last build; reusing it`)
      continue
    }
    say(`building the ${build.name} (its sources changed, or it was never built)…`)
    const started = performance.now()
    const code = await runBuildScript(build.script)
    if (code !== 0) throw new Error(`the ${build.name} build failed (exit ${code})`)
    if (!build.writesStamp) writeFileSync(stampFile(build), `${fingerprint}\n`)
    say(`${build.name} built in ${Math.round(performance.now() - started)} ms`)
  }
}
