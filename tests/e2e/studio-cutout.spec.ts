import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import sharp from 'sharp'
import { enterAsBeta } from './support/studio.ts'
import { studioScreen } from './support/studio-screens.ts'

// A real photo on the built-in offline studio: a cup on a wooden table (tests/fixtures/photos,
// CC0). No plain backdrop to flood-fill, so the local segmentation model cuts the cup out, and
// the result says so in the language the seller reads.

const coffee = async () => ({
  name: 'coffee.png',
  mimeType: 'image/png',
  buffer: await readFile(new URL('../fixtures/photos/coffee.png', import.meta.url)),
})

test('Create on the wooden-table photo: the cup, cut out, on the chosen scene, described in Turkish', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('vitrin.lang', 'tr'))
  await enterAsBeta(page)
  await page.goto('/app/create')
  const screen = studioScreen(page, 'tr')
  await screen.photoInput.setInputFiles(await coffee())
  await expect(screen.uploaded).toBeVisible()
  await screen.suggestion(screen.m('studio.scenes.product.black-minimal')).click()
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: 20_000 })

  // Shot from above, the cup is put on the scene seen from above (decision 42), and the note says so.
  const place = screen.m('studio.result.offlinePlace.sceneTop', {
    scene: screen.m('studio.scenes.product.black-minimal'),
  })
  await expect(page.getByTestId('result-description')).toHaveText(
    screen.m('studio.result.offlineNote.product.model', { place }),
  )
  await expect(page.getByTestId('offline-note')).toHaveText(screen.m('studio.result.offline'))

  // On the black scene the red saucer is large and in the middle: cut out, it spans 61 % of the
  // frame and is 9.5 % of it; the card the studio made before (the whole photo, table and all,
  // shrunk to fit) gave 53 % and 3.6 %.
  const response = await page.request.get((await screen.resultImage.getAttribute('src')) ?? '')
  const { data, info } = await sharp(await response.body())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  let red = 0
  let redLeft = info.width
  let redRight = 0
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3
      if ((data[i] as number) > 110 && (data[i + 1] as number) < 60 && (data[i + 2] as number) < 50) {
        red++
        redLeft = Math.min(redLeft, x)
        redRight = Math.max(redRight, x)
      }
    }
  }
  expect(red).toBeGreaterThan(info.width * info.height * 0.07)
  expect(redRight - redLeft).toBeGreaterThan(info.width * 0.57)
  expect(Math.abs((redLeft + redRight) / 2 - info.width / 2)).toBeLessThan(info.width * 0.05)
})
