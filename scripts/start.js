// @ts-check
import { enableCompileCache } from 'node:module'
import { constants } from 'node:os'
import { ensureBuilds } from './lib/builds.js'

// `npm start`: builds the web app and the server when their sources changed since their last
// builds (else reuses them), then runs the built server (dist/server/main.js) in this same
// process. Plain JavaScript on plain Node: no TypeScript loader on the way to serving
// (docs/decisions/0046-server-built-to-javascript.md). package.json starts this file with
// `exec node`, so npm's SIGTERM and SIGINT reach this process, and through it the server's own
// handlers.

// A stop asked for during a build ends the build (the signal is passed on) and the start;
// nothing is held yet.
/** @type {NodeJS.Signals | null} */
let stopSignal = null
/** @param {NodeJS.Signals} signal */
const onStopSignal = (signal) => {
  stopSignal ??= signal
}
process.on('SIGINT', onStopSignal)
process.on('SIGTERM', onStopSignal)
const exitIfStopped = () => {
  if (stopSignal) process.exit(128 + constants.signals[stopSignal])
}

await ensureBuilds((line) => process.stdout.write(`${line}\n`)).catch((/** @type {unknown} */ error) => {
  exitIfStopped()
  throw error
})
exitIfStopped()
process.off('SIGINT', onStopSignal)
process.off('SIGTERM', onStopSignal)
// V8 keeps the code it compiled from the built server beside it, and the next start reuses it
// instead of compiling the bundle again (a new build is a new folder, and so a new cache).
enableCompileCache(new URL('../dist/server/.compile-cache', import.meta.url).pathname)
// By its URL: the file exists only once built.
await import(new URL('../dist/server/main.js', import.meta.url).href)
