import { randomUUID } from 'node:crypto'
import sharp from 'sharp'

// What a benchmark does through Vitrin's API as a seller would: sign up, upload a photo.

/**
 * Signs up a new seller (a fresh email each call) and returns the session cookie. `headers` go
 * with the request, e.g. an X-Forwarded-For that gives each seller a client address of their own
 * on a server that trusts it (sign-ups are limited per address).
 */
export async function signUp(origin: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: 'bench-password' }),
  })
  if (response.status !== 201) throw new Error(`sign-up answered ${response.status}`)
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

/**
 * Calls the app as the signed-in `cookie`: `call` answers the JSON body, or throws with the
 * status and body when the status is not `expected`; `json` makes a JSON POST.
 */
export function signedInCalls(origin: string, cookie: string) {
  return {
    call: async <T>(path: string, init: RequestInit, expected: number): Promise<T> => {
      const response = await fetch(`${origin}${path}`, { ...init, headers: { cookie, ...init.headers } })
      const text = await response.text()
      if (response.status !== expected) throw new Error(`${path} answered ${response.status}: ${text}`)
      return JSON.parse(text) as T
    },
    json: (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  }
}

export async function uploadAsset(
  origin: string,
  cookie: string,
  bytes: Buffer,
  name: string,
): Promise<string> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name)
  const response = await fetch(`${origin}/api/assets`, { method: 'POST', headers: { cookie }, body: form })
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { asset: { id: string } }).asset.id
}

/** A product-photo-sized input for generation jobs (about 1 megapixel). */
export function makeInputPhoto(): Promise<Buffer> {
  return sharp({
    create: {
      width: 1200,
      height: 1200,
      channels: 3,
      background: '#b45309',
      noise: { type: 'gaussian', mean: 140, sigma: 25 },
    },
  })
    .blur(1.5)
    .jpeg({ quality: 85 })
    .toBuffer()
}
