import { secureHeaders } from 'hono/secure-headers'

/** The app's content security policy, directive by directive. */
export function cspDirectives(options: { isProduction: boolean }): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    ...(options.isProduction ? { upgradeInsecureRequests: [] } : {}),
  }
}

/** Directives as a Content-Security-Policy header value (`styleSrc` → `style-src`). */
export function cspHeader(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...sources].join(' '))
    .join('; ')
}

/**
 * Security headers for every response. The CSP allows no inline script: the classic scripts
 * (lang-init.js, hydrate.js) are files of our own origin. A prerendered English page sets its
 * own CSP, allowing its one inline script, the language check, by its hash (web-app.ts).
 */
export function securityHeaders(options: { isProduction: boolean }) {
  return secureHeaders({
    // A route may set one of these itself, and then its own stands: the API reference page does,
    // for a CSP that allows inline styles (src/server/v1/api-reference.routes.ts), and so
    // does a prerendered public page, to allow its inline stylesheet (and an English page its
    // language check) by hash (web-app.ts).
    overwrite: false,
    contentSecurityPolicy: cspDirectives(options),
    strictTransportSecurity: options.isProduction ? 'max-age=31536000; includeSubDomains' : false,
    // frame-ancestors 'none' for browsers that read CSP, the same for those that do not.
    xFrameOptions: 'DENY',
    crossOriginEmbedderPolicy: false,
    referrerPolicy: 'strict-origin-when-cross-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  })
}
