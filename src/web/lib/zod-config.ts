import { config } from 'zod/v4/core'

// zod compiles each object schema with `new Function` when it may, and asks whether it may by
// trying it. Under the app's CSP (no 'unsafe-eval') that probe is refused and reported as a
// violation on every page with a form. The web app checks small forms: zod's interpreter is
// plenty. Imported first by main.tsx, before any module defines a schema (the choice is read
// when a schema is made).
config({ jitless: true })
