import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import type { GenerationAssetView, GenerationListResponse } from '#shared/contracts/generations.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import {
  dropFile,
  garmentPhoto,
  notAnImage,
  oversizedJpeg,
  productPhotoJpeg,
  productPhotoPng,
  referenceModelPhoto,
} from './support/images.ts'
import { enterAsBeta, exhaustImageQuota, readUsage } from './support/studio.ts'
import { offlineResultTimeout, offlineVideoTimeout, studioScreen } from './support/studio-screens.ts'

// Create and Fashion on the built-in offline studio, driven as a seller would: upload, pick,
// generate, convert, download, save, copy; and the ways it can refuse.

async function openCreate(page: Page) {
  await enterAsBeta(page)
  await page.goto('/app/create')
  const screen = studioScreen(page)
  await expect(screen.generate).toBeVisible()
  return screen
}

async function imageSize(page: Page, url: string) {
  const response = await page.request.get(url)
  expect(response.ok()).toBe(true)
  return sharp(await response.body()).metadata()
}

test('upload by click → image → video → download → save → in the library', async ({ page }) => {
  test.slow() // an image and an ffmpeg video on a machine other tests share
  const screen = await openCreate(page)
  await expect(screen.generate).toBeDisabled()
  await expect(page.getByText(screen.m('studio.generate.noFile'))).toBeVisible()
  await expect(screen.ratio('1:1')).toBeChecked()

  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(page.getByTestId('product-photo-name')).toHaveText('product.png')
  await expect(page.getByTestId('product-photo-size')).toContainText('MB')
  await expect(screen.uploaded).toBeVisible()
  await screen.suggestion('Marble countertop').click()
  await expect(screen.prompt).toHaveValue('marble countertop')
  await expect(screen.generate).toHaveText('Generate Image')
  await expect(screen.quotaLeft).toHaveText('1,000 of 1,000 images left this period')

  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
  await expect(page).toHaveURL(/[?&]job=/)
  await expect(page.getByTestId('result-prompt')).toHaveText('marble countertop')
  await expect(page.getByTestId('offline-note')).toBeVisible()
  await expect(screen.quotaLeft).toHaveText('999 of 1,000 images left this period')
  const imageUrl = await screen.resultImage.getAttribute('src')
  const image = await imageSize(page, imageUrl ?? '')
  expect([image.width, image.height]).toEqual([1080, 1080])

  const imageDownload = page.waitForEvent('download')
  await screen.download.click()
  const imageFile = await imageDownload
  expect(imageFile.suggestedFilename()).toMatch(/^vitrin-product-image-1x1-.+\.(jpg|png|webp)$/)

  await page.getByLabel('Video prompt (optional)').fill('slow zoom in')
  await screen.createVideo.click()
  await expect(page.getByTestId('convert-to-video').getByTestId('job-status')).toBeVisible()
  await expect(screen.resultVideo).toBeVisible({ timeout: offlineVideoTimeout })
  // The video replaces the image, and no further conversion is offered.
  await expect(screen.resultImage).toHaveCount(0)
  await expect(screen.createVideo).toHaveCount(0)
  await expect(page.getByTestId('video-note')).toHaveText('720p · 8 seconds · 1:1')
  // The image it was made from can still be published, with the video (no marketplace is connected here).
  await expect(page.getByTestId('publish-panel').getByTestId('publish-not-connected')).toBeVisible()
  await expect(screen.resultVideo).toHaveJSProperty('muted', true)
  await expect(screen.resultVideo).toHaveAttribute('controls', '')
  await expect(screen.resultVideo).toHaveAttribute('poster', imageUrl ?? '')
  const videoDownload = page.waitForEvent('download')
  await screen.download.click()
  expect((await videoDownload).suggestedFilename()).toMatch(/^vitrin-product-video-1x1-.+\.mp4$/)

  await screen.save.click()
  await expect(screen.save).toHaveText('Saved')
  await expect(screen.save).toHaveAttribute('aria-pressed', 'true')
  const usage = await readUsage(page)
  expect([usage.images.used, usage.videos.used]).toEqual([1, 1])

  const saved = (await (await page.request.get('/api/generations?saved=1')).json()) as GenerationListResponse
  expect(saved.items.map((item) => item.mode)).toEqual(['video'])
  await page.goto('/app/library?saved=1')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Library')
  const items = page.getByTestId('library-item')
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText('Video')
  await expect(items.first()).toContainText('Ready')
})

test('drop a photo → SEO copy → each copy button puts the right text on the clipboard', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const screen = await openCreate(page)
  await dropFile(screen.dropTarget, await productPhotoJpeg())
  await expect(screen.uploaded).toBeVisible()
  await screen.type('seo').click()
  await expect(screen.generate).toHaveText('Generate SEO Content')
  await expect(page.getByText('SEO content is unlimited.')).toBeVisible()
  await page.getByLabel('Product name').fill('Seramik Kupa')
  await page.getByLabel('Brand').fill('Atölye')
  await screen.generate.click()
  await expect(page.getByTestId('seo-result')).toBeVisible()

  const jobId = new URL(page.url()).searchParams.get('job')
  const generation = (await (await page.request.get(`/api/generations/${jobId}`)).json()) as {
    generation: {
      result: { type: 'seo'; title: string; description: string; features: string[]; keywords: string[] }
    }
  }
  const seo = generation.generation.result
  expect(seo.title).toContain('Seramik Kupa')
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText())

  await page.getByTestId('seo-title-copy').click()
  await expect.poll(clipboard).toBe(seo.title)
  await expect(page.getByTestId('seo-title-count')).toHaveText(`${seo.title.length} / 60 characters`)
  await page.getByTestId('seo-description-copy').click()
  await expect.poll(clipboard).toBe(seo.description)
  await page.getByTestId('seo-features-copy').click()
  await expect.poll(clipboard).toBe(seo.features.map((f) => `• ${f}`).join('\n'))
  await page.getByTestId('seo-keywords-copy').click()
  await expect.poll(clipboard).toBe(seo.keywords.join(', '))
  expect(seo.keywords).toHaveLength(10)
  await expectNoSeriousA11yViolations(page)
})

test('a wrong type or an 11 MB file is refused before any upload; the server has the last word', async ({
  page,
}) => {
  const screen = await openCreate(page)
  const uploads: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith('/api/assets')) uploads.push(request.method())
  })

  await screen.photoInput.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hi'),
  })
  await expect(screen.photoError).toHaveText('Please select an image file (PNG, JPG, WEBP)')
  await expect(screen.photoInput).toHaveAttribute('aria-invalid', 'true')
  await screen.photoInput.setInputFiles(await oversizedJpeg())
  await expect(screen.photoError).toHaveText('File size must be less than 10MB')
  expect(uploads).toEqual([])
  await expect(screen.generate).toBeDisabled()

  // Looks like a PNG to the browser; the server reads its bytes and refuses it.
  await screen.photoInput.setInputFiles(notAnImage())
  await expect(screen.photoError).toHaveText('Please select an image file (PNG, JPG, WEBP)')
  expect(uploads).toEqual(['POST'])
  await expect(screen.generate).toBeDisabled()

  // Remove clears the error; a good photo after it works.
  await page.getByRole('button', { name: 'Remove' }).click()
  await expect(screen.photoError).toHaveCount(0)
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await expect(screen.generate).toBeEnabled()
})

test('with the image quota used up, image generation is blocked but SEO is not', async ({ page }) => {
  const screen = await openCreate(page)
  await exhaustImageQuota(page)
  await page.reload()
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await expect(screen.generate).toBeDisabled()
  await expect(screen.quotaMessage).toContainText(
    'You have reached your monthly image quota. Please upgrade your plan or purchase top-ups.',
  )
  await expect(screen.quotaMessage.getByRole('link', { name: 'Buy More Credits' })).toHaveAttribute(
    'href',
    '/billing#buy-credits',
  )
  await screen.type('video').click()
  await expect(screen.generate).toBeEnabled()
  await screen.type('seo').click()
  await expect(screen.generate).toBeEnabled()
  // The offline writer needs to know what the product is.
  await page.getByLabel('Product name').fill('Seramik Kupa')
  await screen.generate.click()
  await expect(page.getByTestId('seo-result')).toBeVisible()
})

test('removing the photo clears the result; a reload picks the job up again', async ({ page }) => {
  const screen = await openCreate(page)
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await screen.ratio('9:16').check({ force: true })
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
  const image = await imageSize(page, (await screen.resultImage.getAttribute('src')) ?? '')
  expect([image.width, image.height]).toEqual([1080, 1920])

  await page.reload()
  await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
  await expect(screen.createVideo).toBeVisible()

  await page.goto('/app/create')
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
  await page.getByRole('button', { name: 'Remove' }).click()
  await expect(screen.resultImage).toHaveCount(0)
  await expect(page.getByText(screen.m('studio.result.emptyTitle'))).toBeVisible()
  await expect(page).not.toHaveURL(/[?&]job=/)
  await expect(screen.generate).toBeDisabled()
})

test('fashion with a reference photo, 9:16 preselected; video autoplays muted', async ({ page }) => {
  test.slow() // an image and an ffmpeg video on a machine other tests share
  await enterAsBeta(page)
  await page.goto('/app/fashion')
  const screen = studioScreen(page)
  await expect(screen.generate).toHaveText('Generate Fashion Image')
  await expect(screen.ratio('9:16')).toBeChecked()
  await screen.garmentInput.setInputFiles(await garmentPhoto())
  await screen.referenceInput.setInputFiles(await referenceModelPhoto())
  await expect(page.getByTestId('reference-photo').getByText('Uploaded')).toBeVisible()
  await expect(page.getByTestId('garment-photo').getByText('Uploaded')).toBeVisible()
  await screen.suggestion('Street style photography').click()
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
  const image = await imageSize(page, (await screen.resultImage.getAttribute('src')) ?? '')
  expect([image.width, image.height]).toEqual([1080, 1920])
  const jobId = new URL(page.url()).searchParams.get('job')
  const job = (await (await page.request.get(`/api/generations/${jobId}`)).json()) as {
    generation: { tool: string; input: GenerationAssetView | null }
  }
  expect(job.generation.tool).toBe('fashion')

  await screen.createVideo.click()
  await expect(screen.resultVideo).toBeVisible({ timeout: offlineVideoTimeout })
  await expect(screen.resultVideo).toHaveAttribute('autoplay', '')
  await expect(screen.resultVideo).toHaveJSProperty('muted', true)
  await expect(page.getByTestId('video-note')).toHaveText('720p · 8 seconds · 9:16')
  await expectNoSeriousA11yViolations(page)
})

test('fashion without a reference, in 1:1 when chosen, in Turkish', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('vitrin.lang', 'tr'))
  await enterAsBeta(page)
  await page.goto('/app/fashion')
  const screen = studioScreen(page, 'tr')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Moda İçeriği')
  await expect(screen.generate).toHaveText('Moda Görseli Oluştur')
  // The e2e server makes images offline: the page says before Generate that no person is made.
  await expect(page.getByTestId('reference-note')).toContainText(
    screen.m('studio.fashion.offlineWithoutReference'),
  )
  await expect(page.getByTestId('reference-note')).toContainText(screen.m('studio.fashion.offlineHowToModel'))
  await screen.garmentInput.setInputFiles(await garmentPhoto())
  await expect(page.getByTestId('garment-photo').getByText('Yüklendi')).toBeVisible()
  await screen.ratio('1:1').check({ force: true })
  await screen.suggestion('Vintage moda').click()
  // The chip writes the style in the seller's language; the model is sent its English prompt.
  await expect(page.getByLabel('Stili tarif edin')).toHaveValue('vintage moda')
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
  const image = await imageSize(page, (await screen.resultImage.getAttribute('src')) ?? '')
  expect([image.width, image.height]).toEqual([1080, 1080])
  await expect(page.getByTestId('download-link')).toHaveText('İndir')
  await expect(page.getByTestId('save-button')).toHaveText('Kitaplığa kaydet')
  await expectNoSeriousA11yViolations(page)
})

test('Create in Turkish: labels, scenes and quota text', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('vitrin.lang', 'tr'))
  await enterAsBeta(page)
  await page.goto('/app/create')
  const screen = studioScreen(page, 'tr')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('İçerik Oluştur')
  await expect(screen.generate).toHaveText('Görsel Oluştur')
  for (const label of ['Beyaz stüdyo arka planı', 'Mermer tezgâh', 'Cam kaide', 'Beton duvar']) {
    await expect(screen.suggestion(label)).toBeVisible()
  }
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await expect(screen.quotaLeft).toHaveText('Bu dönem 1.000 görsel hakkınızdan 1.000 kaldı')
  await screen.type('seo').click()
  await expect(screen.generate).toHaveText('SEO İçeriği Oluştur')
  await expectNoSeriousA11yViolations(page)
})

test('keyboard only: choose the photo, the type and the scene, generate, hear the result', async ({
  page,
}) => {
  const screen = await openCreate(page)
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'choose a file' }).focus()
  await page.keyboard.press('Enter')
  await (await chooser).setFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()

  // The content type is one radio group: arrows move within it.
  await page.getByRole('radio', { name: /^AI image/ }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: /^AI video/ })).toBeChecked()
  await page.keyboard.press('ArrowLeft')
  await expect(page.getByRole('radio', { name: /^AI image/ })).toBeChecked()

  await screen.suggestion('Glass pedestal').focus()
  await page.keyboard.press('Enter')
  await expect(screen.suggestion('Glass pedestal')).toHaveAttribute('aria-pressed', 'true')
  await expect(screen.prompt).toHaveValue('glass pedestal')

  await screen.generate.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('job-announcement')).toHaveText('Done')
  await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
  await expect(screen.resultImage).toHaveAttribute('alt', /^Generated image/)
})

test('signed in, the header leads to the dashboard and each tool, marking where you are', async ({
  page,
}) => {
  await enterAsBeta(page)
  await page.goto('/app')
  const header = page.getByRole('banner')
  for (const [name, path, heading] of [
    ['Create', '/app/create', 'Create Content'],
    ['Fashion', '/app/fashion', 'Fashion Content'],
    ['Library', '/app/library', 'Library'],
    ['Dashboard', '/app', 'Dashboard'],
  ] as const) {
    await header.getByRole('link', { name, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`${path}$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    await expect(header.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page')
  }
})
