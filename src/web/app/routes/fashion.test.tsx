import { screen } from '@testing-library/react'
import { Route, Routes } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { StudioMaker } from '#shared/contracts/settings.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { usageView } from '#tests/support/web-views.ts'
import { FashionPage } from './fashion.tsx'

const fetchMock = stubFetchForEachTest()

const usage = usageView()

function answer(image: StudioMaker) {
  const settings = { byoApiEnabled: false, falKey: { isSet: false }, studio: { image, video: image } }
  fetchMock.mockImplementation(async (input) => {
    const url = String(input)
    if (url === '/api/usage') return json(200, usage)
    if (url === '/api/settings') return json(200, settings)
    return json(404, { error: { code: 'NOT_FOUND', message: 'not found' } })
  })
}

function renderPage(locale: Locale) {
  return renderWeb(
    <Routes>
      <Route path="/app/fashion" element={<FashionPage />} />
    </Routes>,
    { route: '/app/fashion', locale },
  )
}

describe('Fashion page: what the studio will make, said before Generate', () => {
  it('says the offline studio makes no person, and how to get a model, when it makes the images', async () => {
    answer('offline')
    renderPage('en')
    expect(await screen.findByText(/The offline studio makes no person/)).toBeTruthy()
    expect(screen.getByText(/places it on a backdrop in the style you choose/)).toBeTruthy()
    expect(screen.getByText(/AI provider.*own fal key in Settings/)).toBeTruthy()
    expect(screen.queryByText(/a model wearing the garment is shown/)).toBeNull()
    // Nor does the page's own subtitle promise a model.
    expect(screen.getByText('Your garment on a styled backdrop, in the style you choose.')).toBeTruthy()
    expect(screen.queryByText('Your garment on a model, in the style you choose.')).toBeNull()
  })

  it('says it in Turkish too', async () => {
    answer('offline')
    renderPage('tr')
    expect(await screen.findByText(/Çevrimdışı stüdyo insan görseli oluşturmaz/)).toBeTruthy()
    expect(screen.getByText(/kendi fal anahtarınızı/)).toBeTruthy()
    expect(screen.getByText('Kıyafetiniz, seçtiğiniz stilde bir fonun önünde.')).toBeTruthy()
    expect(screen.queryByText(/modelin üzerinde/)).toBeNull()
  })

  it('promises a model only when an AI provider makes the images', async () => {
    answer('ai')
    renderPage('en')
    expect(await screen.findByText(/a model wearing the garment is shown/)).toBeTruthy()
    expect(screen.getByText('Your garment on a model, in the style you choose.')).toBeTruthy()
    expect(screen.queryByText(/The offline studio makes no person/)).toBeNull()
  })
})
