import { fileURLToPath } from 'node:url'

// The server runs from its TypeScript sources (tests, `npm run dev`, the end-to-end servers) or
// from the JavaScript that `npm start` runs, bundled into dist/server by scripts/build-server.ts
// (docs/decisions/0046-server-built-to-javascript.md). In the bundle every module's
// `import.meta.url` is that of the bundle's file, so files the server reads and the worker
// threads it starts are found through here rather than from each module's own location.

/** Whether this code runs from the built bundle (a .js file) rather than from its source. */
export const isBuiltServer = !import.meta.url.endsWith('.ts')

// This file is src/server/runtime-files.ts; the bundle's files are dist/server/*.js (chunks
// included): either way two folders below the project root.
const projectRoot = new URL('../../', import.meta.url)

/** A file of the project by its path from the project root (`drizzle`, `assets/models/…`). */
export function projectFile(path: string): string {
  return fileURLToPath(new URL(path, projectRoot))
}

/**
 * A worker thread's entry, given as its source (`new URL('./x-worker.ts', import.meta.url)`):
 * that source when running from the sources, else the bundled `x-worker.js` beside this code.
 */
export function workerEntry(source: URL): URL {
  if (!isBuiltServer) return source
  const name = source.pathname.slice(source.pathname.lastIndexOf('/') + 1).replace(/\.ts$/, '.js')
  return new URL(`./${name}`, import.meta.url)
}
