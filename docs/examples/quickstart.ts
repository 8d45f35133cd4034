// Vitrin API Quickstart in TypeScript (Node 18+): upload, generate, poll, download, with a client
// typed from the API's own OpenAPI document.
// Once, in your project ("type": "module"): npm install openapi-fetch && npm install -D openapi-typescript,
// then: npx openapi-typescript https://your-vitrin-host/v1/openapi.json -o vitrin-api.ts --default-non-nullable false
// Usage: VITRIN_URL=https://your-vitrin-host VITRIN_API_KEY=vtr_... npx tsx quickstart.ts product.jpg [result.jpg]
import { readFile, writeFile } from 'node:fs/promises'
import { basename } from 'node:path'
import createClient from 'openapi-fetch'
import type { paths } from './vitrin-api.ts'

const baseUrl = process.env.VITRIN_URL
const apiKey = process.env.VITRIN_API_KEY
const [photo, out = 'result.jpg'] = process.argv.slice(2)
if (!baseUrl || !apiKey || !photo) throw new Error('Set VITRIN_URL and VITRIN_API_KEY, and give a photo')
const pollMs = Number(process.env.POLL_SECONDS ?? 2) * 1000

const vitrin = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } })

/** The data of a 2xx answer; any other answer throws with its error code ({ error: { code, message } }). */
function ok<T>(answer: {
  data?: T
  error?: { error: { code: string; message: string } }
  response: Response
}): T {
  const { data, error, response } = answer
  if (data === undefined) {
    throw new Error(`${response.url}: ${response.status} ${error?.error.code} (${error?.error.message})`)
  }
  return data
}

// 1. Upload the photo (multipart, field "file").
const bytes = await readFile(photo)
const { asset } = ok(
  await vitrin.POST('/v1/assets', {
    body: { file: basename(photo) },
    bodySerializer({ file }) {
      const form = new FormData()
      form.append('file', new Blob([bytes]), file)
      return form
    },
  }),
)

// 2. Start an image: the product in a new scene. 202 Accepted, status "queued".
let { generation } = ok(
  await vitrin.POST('/v1/generations', {
    body: { mode: 'image', imageAssetId: asset.id, prompt: 'on a marble countertop, soft daylight' },
  }),
)
console.log(`generation ${generation.id} queued`)

// 3. Poll until it is finished (or wait for a generation.succeeded webhook instead).
while (generation.status === 'queued' || generation.status === 'running') {
  await new Promise((resolve) => setTimeout(resolve, pollMs))
  ;({ generation } = ok(
    await vitrin.GET('/v1/generations/{id}', { params: { path: { id: generation.id } } }),
  ))
}
if (generation.status !== 'succeeded')
  throw new Error(`generation ${generation.status}: ${generation.errorCode}`)

// 4. Download the result.
const result = await vitrin.GET('/v1/generations/{id}/result', {
  params: { path: { id: generation.id } },
  parseAs: 'arrayBuffer',
})
await writeFile(out, Buffer.from(ok(result)))
console.log(`saved ${out} (${result.response.headers.get('content-type')})`)
