import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'
import type { AppEnv } from './context.ts'

/**
 * Serves the built web app: hashed assets cached for a year, other files for an hour, and
 * index.html (never cached) for every other GET, so client-side routes work on reload.
 */
export function mountWebApp(app: Hono<AppEnv>, webDistDir: string): void {
  const root = resolve(webDistDir)
  const indexPath = join(root, 'index.html')

  // Before the first build there is nothing to serve but the hint below.
  if (existsSync(root)) mountFiles(app, root)

  let indexHtml: string | undefined
  app.get('*', (c) => {
    if (indexHtml === undefined && existsSync(indexPath)) indexHtml = readFileSync(indexPath, 'utf8')
    if (indexHtml === undefined) {
      return c.text('The web app is not built yet. Run `npm run build` (npm start does this for you).', 503)
    }
    c.header('Cache-Control', 'no-cache')
    return c.html(indexHtml)
  })
}

function mountFiles(app: Hono<AppEnv>, root: string): void {
  app.use(
    '/assets/*',
    serveStatic({
      root,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable')
      },
    }),
  )
  // A hashed asset that is not there (an old page asking for a chunk of an earlier build) is a
  // 404, not the app's HTML, so the browser fails fast instead of parsing HTML as a script.
  app.get('/assets/*', (c) => c.text('Not found', 404))
  app.use(
    '*',
    serveStatic({
      root,
      // index.html is served by the fallback below, uncached.
      rewriteRequestPath: (path) => (path === '/' || path === '/index.html' ? '/__no_such_file__' : path),
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=3600')
      },
    }),
  )
}
