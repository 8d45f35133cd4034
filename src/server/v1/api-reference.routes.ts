import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { cspDirectives, cspHeader } from '#server/http/security-headers.ts'

// The API reference page (/docs/api, decision 31): our own HTML page that loads Scalar's
// standalone bundle from our origin (node_modules, never a CDN: nothing external loads), which
// reads the OpenAPI document from /v1/openapi.json.

/** Scalar's browser bundle, from the installed package (its exports do not list the file). */
function scalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference')
  return join(dirname(entry), 'browser', 'standalone.js')
}

/**
 * Scalar's settings: no fonts from its CDN (system fonts instead), no telemetry, no AI agent, no
 * MCP generator and no developer tools, so the page never reaches beyond this origin.
 */
const scalarConfiguration = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
}

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Vitrin API reference</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  </head>
  <body>
    <script id="api-reference" data-url="/v1/openapi.json" data-configuration="${JSON.stringify(
      scalarConfiguration,
    ).replaceAll('"', '&quot;')}"></script>
    <script src="/docs/api/scalar.js"></script>
  </body>
</html>
`

/**
 * The page's CSP: the app's (security-headers.ts), except that styles may be inline. Scalar
 * renders with Vue and puts its styles into <style> elements and style attributes at run time,
 * which `style-src 'self'` blocks (the page renders unstyled and its layout breaks); its fonts
 * come as data: URLs. Scripts stay 'self' only: the page has no inline script, and the bundle
 * needs no eval.
 */
function apiReferenceCsp(options: { isProduction: boolean }): string {
  return cspHeader({
    ...cspDirectives(options),
    styleSrc: ["'self'", "'unsafe-inline'"],
    fontSrc: ["'self'", 'data:'],
  })
}

/** GET /docs/api and /docs/api/scalar.js. */
export function apiReferenceRoutes(options: { isProduction: boolean }) {
  const csp = apiReferenceCsp(options)
  let bundle: { bytes: Buffer; etag: string } | undefined
  const loadBundle = () => {
    if (!bundle) {
      const bytes = readFileSync(scalarBundlePath())
      bundle = { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` }
    }
    return bundle
  }
  return new Hono<AppEnv>()
    .get('/', (c) => {
      c.header('Content-Security-Policy', csp)
      c.header('Cache-Control', 'no-cache')
      return c.html(page)
    })
    .get('/scalar.js', (c) => {
      const { bytes, etag } = loadBundle()
      // Not a hashed name, so cached for a day and checked by its ETag after that: a new
      // version of the package is picked up within a day without a rename.
      c.header('Cache-Control', 'public, max-age=86400')
      c.header('ETag', etag)
      // Compression makes the tag weak (W/"…") on the way out; either form names this file.
      const asked = c.req.header('if-none-match')?.split(',') ?? []
      if (asked.some((tag) => tag.trim().replace(/^W\//, '') === etag)) return c.body(null, 304)
      c.header('Content-Type', 'text/javascript; charset=utf-8')
      return c.body(new Uint8Array(bytes))
    })
}

/** GET /v1/openapi.json: the document, public (no key), cached briefly. */
export function openApiDocumentRoutes(document: () => object) {
  return new Hono<AppEnv>().get('/', (c) => {
    c.header('Cache-Control', 'public, max-age=300')
    return c.json(document())
  })
}
