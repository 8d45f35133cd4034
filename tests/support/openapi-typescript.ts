import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'

// Types from /v1/openapi.json with openapi-typescript (a third-party generator, as an integrator
// would run it): `npx openapi-typescript <url> -o vitrin-api.ts --default-non-nullable false`. openapi-typescript 7 builds its
// output with TypeScript's JavaScript compiler API, which TypeScript 7 (the project's compiler)
// no longer ships, so it runs on TypeScript 5 installed beside it as `typescript-5`: a resolve
// hook hands it that package when it imports `typescript` (package.json's override lets the two
// stand side by side; `npm run typecheck` names the project's compiler by path, since both
// packages ship a `tsc` binary). Nothing is fetched: the generator reads the document from the test server.

const run = promisify(execFile)
const repo = join(import.meta.dirname, '../..')
const generator = join(repo, 'node_modules/openapi-typescript/bin/cli.js')

/** Node's resolve hook, registered in the generator's process before it loads. */
const hook = `
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')) {
    return next('typescript-5', context)
  }
  return next(specifier, context)
}`
const registerHook = `import { register } from 'node:module'; register(${JSON.stringify(
  `data:text/javascript,${encodeURIComponent(hook)}`,
)}, ${JSON.stringify(`file://${repo}/`)})`

/** Writes the TypeScript types of the OpenAPI document at `documentUrl` to `outFile`. */
export async function generateApiTypes(documentUrl: string, outFile: string): Promise<void> {
  await run(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(registerHook)}`,
      generator,
      documentUrl,
      '-o',
      outFile,
      // Fields with a default (tool, prompt, keepProduct) stay optional in request bodies.
      '--default-non-nullable',
      'false',
    ],
    { cwd: repo, timeout: 60_000 },
  )
}
