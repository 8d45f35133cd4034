import { expect, test } from '@playwright/test'
import { validSeoCopy } from '#tests/fakes/openai-server.ts'
import { falRequests, scriptFal, scriptOpenAI, seoReply, uniqueMarker } from './support/fakes.ts'
import { productPhotoPng } from './support/images.ts'
import { fakeProviderSettings, falFakeURL, studioProvidersBaseURL } from './support/servers.ts'
import { createGeneration, enterAsBeta, readUsage, uploadAsset, waitForGeneration } from './support/studio.ts'

// The wiring of the fake-provider app: generations go through the real fal and
// OpenAI-compatible protocols to the fake servers, each test scripting only its own jobs.
test.use({ baseURL: studioProvidersBaseURL })

test.describe('studio on the AI providers', () => {
  test('an image generation is made by fal', async ({ page, request }) => {
    await enterAsBeta(page)
    const description = 'The mug on a marble counter.'
    const marker = await scriptFal(request, { description })
    const asset = await uploadAsset(page, await productPhotoPng())

    const created = await createGeneration(page, {
      mode: 'image',
      imageAssetId: asset.id,
      prompt: `marble counter ${marker}`,
    })
    expect(created.status).toBe('queued')
    const done = await waitForGeneration(page, created.id)

    expect(done.status).toBe('succeeded')
    expect(done.result).toMatchObject({ type: 'image', provider: 'fal', description })
    // The photo went to fal storage on the fake, and the submit carried the seller's prompt.
    const submit = (await falRequests(request, marker)).find((r) => r.method === 'POST')
    const input = submit?.body as { prompt: string; image_urls: string[] }
    expect(input.prompt).toContain(marker)
    expect(input.image_urls[0]?.startsWith(`${falFakeURL}/files/`)).toBe(true)
  })

  test('SEO copy is written by the OpenAI-compatible model', async ({ page, request }) => {
    await enterAsBeta(page)
    // The product name is a fact the seller gave: the copy's title keeps it, or it is refused.
    const marker = uniqueMarker('seo')
    const copy = { ...validSeoCopy, title: `Kupa ${marker} Mat Beyaz Seramik 350 ml` }
    await scriptOpenAI(request, seoReply(copy), marker)
    const asset = await uploadAsset(page, await productPhotoPng())

    const created = await createGeneration(page, {
      mode: 'seo',
      imageAssetId: asset.id,
      details: { name: `Kupa ${marker}` },
    })
    const done = await waitForGeneration(page, created.id)

    expect(done.status).toBe('succeeded')
    expect(done.result).toMatchObject({
      type: 'seo',
      provider: 'openai',
      model: fakeProviderSettings.openaiModel,
      title: copy.title,
    })
  })

  test('fal failing every attempt ends the generation failed and gives the image back', async ({
    page,
    request,
  }) => {
    // The worker retries an outage (4 tries; this app waits 200, 400 and 800 ms between them).
    await enterAsBeta(page)
    const marker = await scriptFal(request, { submit: 500 })
    const asset = await uploadAsset(page, await productPhotoPng())
    const before = await readUsage(page)

    const created = await createGeneration(page, {
      mode: 'image',
      imageAssetId: asset.id,
      prompt: `studio ${marker}`,
    })
    expect((await readUsage(page)).images.used).toBe(before.images.used + 1)
    const done = await waitForGeneration(page, created.id)

    expect(done.status).toBe('failed')
    expect(done.errorCode).toBe('PROVIDER_UNAVAILABLE')
    expect(done.result).toBeNull()
    expect((await readUsage(page)).images.used).toBe(before.images.used)
    const submits = (await falRequests(request, marker)).filter((r) => r.method === 'POST')
    // Every try reached fal: the job was retried, not given up at the first answer.
    expect(submits).toHaveLength(4)
  })
})
