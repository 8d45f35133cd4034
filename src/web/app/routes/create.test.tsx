import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { usageView } from '#tests/support/web-views.ts'
import { CreatePage } from './create.tsx'

const fetchMock = stubFetchForEachTest()

const usage = usageView()
const settings = {
  byoApiEnabled: false,
  falKey: { isSet: false },
  studio: { image: 'offline', video: 'offline' },
}
const asset = {
  id: '6b0f3c56-93a4-4c2f-9d38-2a1c8c1f5b11',
  url: '/api/assets/a1/file',
  downloadUrl: '/api/assets/a1/file?download=1',
  mime: 'image/jpeg',
  width: 400,
  height: 300,
  fileName: 'fincan.jpg',
}
const seoGeneration: GenerationView = {
  id: 'g1',
  tool: 'product',
  mode: 'seo',
  aspectRatio: '1:1',
  prompt: '',
  status: 'succeeded',
  queuePosition: null,
  isRetrying: false,
  errorCode: null,
  provider: 'offline',
  usesOwnKey: false,
  isSaved: false,
  input: asset,
  result: {
    type: 'seo',
    title: 'Fincan Takımı',
    description: 'El yapımı porselen.',
    features: ['2 kişilik', '90 ml fincan', 'Renk: Kırmızı', 'Porselen'],
    keywords: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
    model: 'offline-studio',
    provider: 'offline',
  },
  sourceGenerationId: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  startedAt: '2026-11-23T10:00:01.000Z',
  finishedAt: '2026-11-23T10:00:02.000Z',
}

/** The bodies of POST /api/generations, in order. */
let sent: unknown[] = []

beforeEach(() => {
  sent = []
  // jsdom has no object URLs; the photo's preview only needs an address.
  URL.createObjectURL = () => 'blob:photo'
  URL.revokeObjectURL = () => {}
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input)
    if (url === '/api/usage') return json(200, usage)
    if (url === '/api/settings') return json(200, settings)
    if (url === '/api/assets' && init?.method === 'POST') return json(201, { asset })
    if (url === '/api/generations' && init?.method === 'POST') {
      sent.push(JSON.parse(String(init.body)))
      return json(202, { generation: seoGeneration })
    }
    if (url.startsWith('/api/generations/g1')) return json(200, { generation: seoGeneration })
    return json(404, { error: { code: 'NOT_FOUND', message: 'not found' } })
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** The Create page with a photo of a cup chosen. */
async function openWithPhoto(locale: Locale) {
  const user = userEvent.setup()
  await renderWeb(
    <Routes>
      <Route path="/app/create" element={<CreatePage />} />
    </Routes>,
    { route: '/app/create', locale },
  )
  const input = screen.getByTestId('product-photo').querySelector('input[type="file"]') as HTMLInputElement
  await user.upload(
    input,
    new File([new Uint8Array([0xff, 0xd8, 0xff])], 'fincan.jpg', { type: 'image/jpeg' }),
  )
  return user
}

async function openForSeo(locale: Locale) {
  const user = await openWithPhoto(locale)
  await user.click(screen.getByRole('radio', { name: locale === 'tr' ? /SEO içeriği/ : /SEO content/ }))
  return user
}

/** The text that describes a control to assistive technology (its aria-describedby). */
function descriptionOf(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
}

// These type whole sentences key by key into the Create page, which re-renders on each key: on a
// busy 2-core machine that alone can take longer than the default 5 s.
describe('Create: the product details the seller gives', { timeout: 20_000 }, () => {
  it('sends colour, the seller’s description and key features (one per line) with the SEO request', async () => {
    const user = await openForSeo('en')
    await user.type(screen.getByLabelText('Product name'), 'Fincan Takımı')
    await user.type(screen.getByLabelText('Colour'), 'Kırmızı')
    await user.type(screen.getByLabelText('Your description'), 'El yapımı porselen. İki kişilik.')
    await user.type(screen.getByLabelText('Key features'), '2 kişilik{Enter}{Enter}90 ml fincan{Enter}')
    const generate = screen.getByRole('button', { name: 'Generate SEO Content' })
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false))
    await user.click(generate)
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toMatchObject({
      mode: 'seo',
      imageAssetId: asset.id,
      details: {
        name: 'Fincan Takımı',
        color: 'Kırmızı',
        description: 'El yapımı porselen. İki kişilik.',
        features: ['2 kişilik', '90 ml fincan'],
      },
    })
    // The copy it came back with is labelled as the offline writer's.
    expect((await screen.findByTestId('offline-note')).textContent).toBe(
      'Written by the built-in offline writer',
    )
  })

  it('labels and explains each new field in Turkish', async () => {
    await openForSeo('tr')
    expect(descriptionOf(screen.getByLabelText('Renk'))).toContain('Boş bırakırsanız fotoğraftan okunur.')
    expect(descriptionOf(screen.getByLabelText('Kendi açıklamanız'))).toContain('meta açıklamada')
    expect(descriptionOf(screen.getByLabelText('Öne çıkan özellikler'))).toContain('en fazla 6 özellik')
  })

  it('does not send more than six key features: it says why and takes the seller to the field', async () => {
    const user = await openForSeo('en')
    const features = screen.getByLabelText('Key features')
    await user.type(features, 'a{Enter}b{Enter}c{Enter}d{Enter}e{Enter}f{Enter}g')
    expect(features.getAttribute('aria-invalid')).toBe('true')
    expect(descriptionOf(features)).toContain('At most 6 key features: there are 7 lines.')
    const generate = screen.getByRole('button', { name: 'Generate SEO Content' })
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false))
    await user.click(generate)
    expect(document.activeElement).toBe(features)
    expect(sent).toHaveLength(0)
  })

  it('names a key feature longer than 100 characters by its line, in Turkish', async () => {
    const user = await openForSeo('tr')
    const features = screen.getByLabelText('Öne çıkan özellikler')
    await user.click(features)
    await user.paste(`kısa\n${'x'.repeat(101)}`)
    expect(descriptionOf(features)).toContain('2. satır 100 karakterden uzun.')
  })
})

describe('Create: the camera angle of the scene', () => {
  it('starts at "match my photo", moves with the arrow keys, and sends the angle picked', async () => {
    const user = await openWithPhoto('en')
    const auto = screen.getByRole('radio', { name: 'Match my photo' }) as HTMLInputElement
    expect(auto.checked).toBe(true)
    expect(descriptionOf(screen.getByTestId('scene-view'))).toContain('from the angle your photo was taken')
    auto.focus()
    await user.keyboard('{ArrowRight}')
    expect((screen.getByRole('radio', { name: 'From above' }) as HTMLInputElement).checked).toBe(true)
    const generate = screen.getByRole('button', { name: 'Generate Image' })
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false))
    await user.click(generate)
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toMatchObject({ mode: 'image', view: 'top' })
  })

  it('names the angles in Turkish, and is not offered for SEO copy', async () => {
    const user = await openWithPhoto('tr')
    expect(screen.getByRole('group', { name: 'Çekim açısı' })).toBeTruthy()
    for (const name of ['Fotoğrafıma uysun', 'Üstten', 'Önden'])
      expect(screen.getByRole('radio', { name })).toBeTruthy()
    await user.click(screen.getByRole('radio', { name: /SEO içeriği/ }))
    expect(screen.queryByTestId('scene-view')).toBeNull()
  })
})
