import { randomUUID } from 'node:crypto'
import type { APIRequestContext, APIResponse } from '@playwright/test'
import type { SeoContent } from '#shared/seo.ts'
import type { FalFakeRequest, FalFakeScript } from '#tests/fakes/fal-server.ts'
import type { OpenAiFakeReplies, OpenAiFakeRequest } from '#tests/fakes/openai-server.ts'
import { falFakeURL, openaiFakeURL } from './servers.ts'

// Scripting the fake providers behind the fake-provider app (servers.ts), over their
// /__control/ endpoints. The fakes are shared by every test of the run, so a script is keyed
// to a marker only this test sends: a fal script applies to generations whose `prompt`
// contains the marker (and to those jobs' status, result, cancel and downloads); an OpenAI
// script to SEO requests whose product details (`details.name`) contain it. Everything else
// keeps working normally, so tests stay parallel.
//
// The shared (unkeyed) scripts and `resetFakes(request)` touch every test's traffic: a spec
// using them must run its tests serially (`test.describe.configure({ mode: 'serial' })`) and
// must not share the run with other specs driving the fake-provider app in parallel.
// fal storage uploads carry no marker, so an `upload` script only works shared.

export type { FalFakeScript, FalFakeStep, FalFakeSteps } from '#tests/fakes/fal-server.ts'
export type { OpenAiFakeReplies, OpenAiFakeReply } from '#tests/fakes/openai-server.ts'

/** A marker no other test sends: put it in the prompt (fal) or `details.name` (SEO). */
export function uniqueMarker(label = 'e2e'): string {
  return `${label}-${randomUUID().slice(0, 8)}`
}

async function expectOk(response: APIResponse, what: string): Promise<void> {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`)
}

/**
 * Scripts the fal fake for generations whose prompt contains `match` (a new marker when not
 * given) and returns that marker, to put in the generation's `prompt`. Step lists answer one
 * request each, then work normally; a single step answers every request:
 * `{ submit: 500 }` always fails the submit, `{ completeAfterMs: 60_000 }` keeps the job
 * running, `{ result: ['error422'] }` has the model refuse it.
 */
export async function scriptFal(
  request: APIRequestContext,
  script: FalFakeScript,
  match: string = uniqueMarker('fal'),
): Promise<string> {
  await expectOk(
    await request.post(`${falFakeURL}/__control/script`, { data: { match, script } }),
    'fal fake script',
  )
  return match
}

/** Lets the fal fake's jobs in flight for `match` (held by a long `completeAfterMs`) finish now. */
export async function releaseFal(request: APIRequestContext, match: string): Promise<void> {
  await expectOk(
    await request.post(`${falFakeURL}/__control/release`, { data: { match } }),
    'fal fake release',
  )
}

/**
 * Scripts the OpenAI-compatible fake for SEO requests whose product details contain `match`
 * (a new marker when not given) and returns it, to put in `details.name`. A list answers one
 * request each (the SDK's own retries count), then 'valid'; one reply answers every request:
 * `seoReply({...})` returns that copy, `500` always fails, 'malformed' is unusable output.
 */
export async function scriptOpenAI(
  request: APIRequestContext,
  replies: OpenAiFakeReplies,
  match: string = uniqueMarker('seo'),
): Promise<string> {
  await expectOk(
    await request.post(`${openaiFakeURL}/__control/script`, { data: { match, replies } }),
    'OpenAI fake script',
  )
  return match
}

/** A reply carrying this SEO copy as the model's JSON answer. */
export function seoReply(copy: SeoContent): { content: string } {
  return { content: JSON.stringify(copy) }
}

/** Scripts every fal request that no keyed script claims. Serial specs only (see above). */
export async function scriptFalShared(request: APIRequestContext, script: FalFakeScript): Promise<void> {
  await expectOk(
    await request.post(`${falFakeURL}/__control/script`, { data: { script } }),
    'fal fake script',
  )
}

/** Scripts every OpenAI request that no keyed script claims. Serial specs only (see above). */
export async function scriptOpenAIShared(
  request: APIRequestContext,
  replies: OpenAiFakeReplies,
): Promise<void> {
  await expectOk(
    await request.post(`${openaiFakeURL}/__control/script`, { data: { replies } }),
    'OpenAI fake script',
  )
}

/**
 * Drops the scripts keyed to `match` on both fakes; without `match`, every script, keyed or
 * shared (serial specs only). Keyed scripts of finished tests are harmless: no one else
 * sends their marker.
 */
export async function resetFakes(request: APIRequestContext, match?: string): Promise<void> {
  const data = match ? { match } : {}
  await Promise.all([
    request
      .post(`${falFakeURL}/__control/reset`, { data })
      .then((response) => expectOk(response, 'fal fake reset')),
    request
      .post(`${openaiFakeURL}/__control/reset`, { data })
      .then((response) => expectOk(response, 'OpenAI fake reset')),
  ])
}

/** The requests the fal fake answered under the script keyed to `match` (oldest first). */
export async function falRequests(request: APIRequestContext, match: string): Promise<FalFakeRequest[]> {
  const response = await request.get(`${falFakeURL}/__control/requests?${new URLSearchParams({ match })}`)
  await expectOk(response, 'fal fake requests')
  return ((await response.json()) as { requests: FalFakeRequest[] }).requests
}

/** The requests the OpenAI fake answered under the script keyed to `match` (oldest first). */
export async function openaiRequests(
  request: APIRequestContext,
  match: string,
): Promise<OpenAiFakeRequest[]> {
  const response = await request.get(`${openaiFakeURL}/__control/requests?${new URLSearchParams({ match })}`)
  await expectOk(response, 'OpenAI fake requests')
  return ((await response.json()) as { requests: OpenAiFakeRequest[] }).requests
}
