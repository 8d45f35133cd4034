import { constants } from 'node:os'
import { ensureWebBuild } from './lib/web-build.ts'

// `npm start`: builds the web app when its sources changed since the last build (else reuses
// it), then runs the server in this same process. package.json starts this file with `exec node`,
// so npm's SIGTERM and SIGINT reach this process, and through it the server's own handlers.

// A stop asked for during the build ends the build (ensureWebBuild passes the signal on) and the
// start; nothing is held yet.
let stopSignal: NodeJS.Signals | null = null
const onStopSignal = (signal: NodeJS.Signals) => {
  stopSignal ??= signal
}
process.on('SIGINT', onStopSignal)
process.on('SIGTERM', onStopSignal)
const exitIfStopped = () => {
  if (stopSignal) process.exit(128 + constants.signals[stopSignal])
}

const started = performance.now()
const outcome = await ensureWebBuild().catch((error: unknown) => {
  exitIfStopped()
  throw error
})
exitIfStopped()
process.off('SIGINT', onStopSignal)
process.off('SIGTERM', onStopSignal)
process.stdout.write(
  outcome === 'built'
    ? `web app built in ${Math.round(performance.now() - started)} ms\n`
    : 'web app unchanged since the last build; reusing it\n',
)
await import('#server/main.ts')
