import { ensureWebBuild } from './lib/web-build.ts'

// `npm start`: builds the web app when its sources changed since the last build (else reuses
// it), then runs the server in this same process.
const started = performance.now()
const outcome = await ensureWebBuild()
process.stdout.write(
  outcome === 'built'
    ? `web app built in ${Math.round(performance.now() - started)} ms\n`
    : 'web app unchanged since the last build; reusing it\n',
)
await import('#server/main.ts')
