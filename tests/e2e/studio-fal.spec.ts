import { expect, test } from '@playwright/test'
import { validSeoCopy } from '#tests/fakes/openai-server.ts'
import { falRequests, releaseFal, scriptFal, scriptOpenAI, seoReply, uniqueMarker } from './support/fakes.ts'
import { productPhotoPng } from './support/images.ts'
import { studioProvidersBaseURL } from './support/servers.ts'
import { enterAsBeta, readUsage } from './support/studio.ts'
import { studioScreen } from './support/studio-screens.ts'

// Create on the AI providers (fal for images and videos, an OpenAI-compatible model for SEO),
// pointed at the fake servers, which answer with the real protocols. Each test scripts only
// the jobs that carry its own marker in their prompt or product name.
test.use({ baseURL: studioProvidersBaseURL })

async function openCreate(page: import('@playwright/test').Page) {
  await enterAsBeta(page)
  await page.goto('/app/create')
  const screen = studioScreen(page)
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  return screen
}

test('fal image → fal video → OpenAI SEO, shown as on the offline studio', async ({ page, request }) => {
  const screen = await openCreate(page)
  const marker = await scriptFal(request, { description: 'A blue mug on a marble counter.' })
  await screen.prompt.fill(`on a marble counter ${marker}`)
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible()
  await expect(page.getByTestId('result-description')).toHaveText('A blue mug on a marble counter.')
  await expect(page.getByTestId('offline-note')).toHaveCount(0)
  const submit = (await falRequests(request, marker)).find((r) => r.method === 'POST')
  expect(submit?.body).toMatchObject({ aspect_ratio: '1:1' })

  await page.getByLabel('Video prompt (optional)').fill(`slow orbit ${marker}`)
  await screen.createVideo.click()
  await expect(screen.resultVideo).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('video-note')).toHaveText('720p · 8 seconds · 1:1')
  const videoSubmit = (await falRequests(request, marker)).filter((r) => r.method === 'POST').at(-1)
  expect(videoSubmit?.body).toMatchObject({ duration: '8s', generate_audio: false, resolution: '720p' })

  // The product name is a fact the seller gave: the copy's title keeps it, or it is refused.
  const seoMarker = uniqueMarker('seo')
  const copy = { ...validSeoCopy, title: `Kupa ${seoMarker} Mavi Seramik 350 ml` }
  await scriptOpenAI(request, seoReply(copy), seoMarker)
  await page.getByRole('button', { name: 'Remove' }).click()
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await screen.type('seo').click()
  await page.getByLabel('Product name').fill(`Kupa ${seoMarker}`)
  await screen.generate.click()
  await expect(page.getByTestId('seo-title')).toContainText(copy.title)
  await expect(page.getByTestId('seo-keywords').getByRole('listitem')).toHaveCount(10)
})

test('a provider failure shows the error and gives the image back', async ({ page, request }) => {
  const screen = await openCreate(page)
  await expect(screen.quotaLeft).toHaveText('1,000 of 1,000 images left this period')
  const marker = await scriptFal(request, { submit: 500 })
  await screen.prompt.fill(`white studio ${marker}`)
  await screen.generate.click()
  await expect(screen.jobError).toBeVisible({ timeout: 20_000 })
  await expect(screen.jobError).toContainText('Generation failed. Please try again.')
  await expect(screen.jobError).toContainText('Your quota was given back')
  await expect(screen.quotaLeft).toHaveText('1,000 of 1,000 images left this period')
  expect((await readUsage(page)).images.used).toBe(0)
  // Nothing fake is shown as a result.
  await expect(screen.resultImage).toHaveCount(0)
  await expect(screen.generate).toBeEnabled()
})

test('a failed video says so, keeps the image and gives the video back', async ({ page, request }) => {
  const screen = await openCreate(page)
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible()
  const marker = await scriptFal(request, { submit: 500 })
  await page.getByLabel('Video prompt (optional)').fill(`orbit ${marker}`)
  await screen.createVideo.click()
  await expect(page.getByTestId('convert-to-video').getByTestId('job-error')).toContainText(
    'Video generation failed. Please try again.',
    { timeout: 20_000 },
  )
  await expect(screen.resultImage).toBeVisible()
  await expect(screen.createVideo).toBeEnabled()
  expect((await readUsage(page)).videos.used).toBe(0)
})

test('leaving mid-job: the job goes on and its result is waiting in the library', async ({
  page,
  request,
}) => {
  const screen = await openCreate(page)
  // The job runs until the test lets it finish, however slow the machine.
  const marker = await scriptFal(request, { completeAfterMs: 600_000 })
  await screen.prompt.fill(`concrete wall ${marker}`)
  await screen.generate.click()
  await expect(screen.jobStatus).toBeVisible()
  await expect(page.getByTestId('job-state')).toHaveText(/Queued|Generating/)
  await expect(page.getByTestId('job-elapsed')).toHaveText(/\d+ s/)
  await expect(screen.generate).toBeDisabled()

  // A reload picks the running job up again.
  await page.reload()
  await expect(screen.jobStatus).toBeVisible()

  await screen.jobStatus.getByRole('link', { name: 'library' }).click()
  await expect(page).toHaveURL(/\/app\/library/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Library')
  const item = page.getByTestId('library-item').first()
  await expect(item).toContainText(/Queued|Generating/)
  await releaseFal(request, marker)
  await expect(item).toContainText('Ready', { timeout: 20_000 })
  expect((await readUsage(page)).images.used).toBe(1)
})

test('while a video is being made from the result, Generate waits for it', async ({ page, request }) => {
  const screen = await openCreate(page)
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible()
  await expect(screen.generate).toBeEnabled()
  // The video runs until the test has seen Generate wait for it, however slow the machine.
  const marker = await scriptFal(request, { completeAfterMs: 600_000 })
  await page.getByLabel('Video prompt (optional)').fill(`slow pan ${marker}`)
  await screen.createVideo.click()
  await expect(page.getByTestId('convert-to-video').getByTestId('job-status')).toBeVisible()
  await expect(screen.generate).toBeDisabled()
  await releaseFal(request, marker)
  await expect(screen.resultVideo).toBeVisible({ timeout: 20_000 })
  await expect(screen.generate).toBeEnabled()
})
