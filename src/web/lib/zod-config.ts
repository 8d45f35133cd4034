// zod compiles each object schema with `new Function` when it may, and asks whether it may by
// trying it. Under the app's CSP (no 'unsafe-eval') that probe is refused and reported as a
// violation on every page with a form. The web app checks small forms: zod's interpreter is
// plenty. zod keeps its settings on `globalThis.__zod_globalConfig` and adopts an object put
// there before it loads (node_modules/zod/v4/core/core.js); setting it here, rather than calling
// zod's `config()`, keeps zod out of the first download (it loads with the first form).
// Imported first by main.tsx. The end-to-end test of the public pages fails on any CSP refusal.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true }

export {}
