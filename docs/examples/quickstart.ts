// Vitrin API Quickstart in TypeScript (Node 18+, fetch): upload, generate, poll, download.
// Usage: VITRIN_URL=https://your-vitrin-host VITRIN_API_KEY=vtr_... npx tsx quickstart.ts product.jpg [result.jpg]
import { readFile, writeFile } from 'node:fs/promises'
import { basename } from 'node:path'

const baseUrl = process.env.VITRIN_URL
const apiKey = process.env.VITRIN_API_KEY
const [photo, out = 'result.jpg'] = process.argv.slice(2)
if (!baseUrl || !apiKey || !photo) throw new Error('Set VITRIN_URL and VITRIN_API_KEY, and give a photo')
const pollMs = Number(process.env.POLL_SECONDS ?? 2) * 1000

/** Calls /v1 with the key; a non-2xx answer throws with its error code ({ error: { code, message } }). */
async function vitrin(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${apiKey}`, ...init.headers },
  })
  if (!response.ok) {
    const { error } = (await response.json()) as { error: { code: string; message: string } }
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${error.code} (${error.message})`)
  }
  return response
}

type Generation = {
  id: string
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled'
  errorCode: string | null
}

// 1. Upload the photo (multipart, field "file").
const form = new FormData()
form.append('file', new Blob([await readFile(photo)]), basename(photo))
const { asset } = (await (await vitrin('/v1/assets', { method: 'POST', body: form })).json()) as {
  asset: { id: string }
}

// 2. Start an image: the product in a new scene. 202 Accepted, status "queued".
const started = await vitrin('/v1/generations', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({
    mode: 'image',
    imageAssetId: asset.id,
    prompt: 'on a marble countertop, soft daylight',
  }),
})
let { generation } = (await started.json()) as { generation: Generation }
console.log(`generation ${generation.id} queued`)

// 3. Poll until it is finished (or wait for a generation.succeeded webhook instead).
while (generation.status === 'queued' || generation.status === 'running') {
  await new Promise((resolve) => setTimeout(resolve, pollMs))
  ;({ generation } = (await (await vitrin(`/v1/generations/${generation.id}`)).json()) as {
    generation: Generation
  })
}
if (generation.status !== 'succeeded')
  throw new Error(`generation ${generation.status}: ${generation.errorCode}`)

// 4. Download the result.
const result = await vitrin(`/v1/generations/${generation.id}/result`)
await writeFile(out, Buffer.from(await result.arrayBuffer()))
console.log(`saved ${out} (${result.headers.get('content-type')})`)
