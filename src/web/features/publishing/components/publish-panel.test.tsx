import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { IntegrationsResponse } from '#shared/contracts/integrations.ts'
import type { PublicationView, PublishDraftResponse } from '#shared/contracts/publishing.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import {
  assetView,
  colourAttribute,
  imageGenerationView,
  integrationsView,
  pieceCountAttribute,
  publicationItemView,
  publicationView,
} from '#tests/support/web-views.ts'
import { PublicationStatus } from './publication-status.tsx'
import { PublishPanel } from './publish-panel.tsx'

const fetchMock = stubFetchForEachTest()

const asset = (id: string) => assetView(id, { mime: 'image/jpeg', width: 1200, height: 1800 })

const imageGeneration = imageGenerationView(
  'img-1',
  { input: asset('in'), output: asset('out') },
  {
    aspectRatio: '2:3',
    createdAt: '2026-11-29T11:05:00.000Z',
    startedAt: '2026-11-29T11:05:00.000Z',
    finishedAt: '2026-11-29T11:05:02.000Z',
  },
)

const connections = integrationsView

const category = {
  marketplace: 'trendyol' as const,
  id: '1111',
  name: 'Fincan Takımı',
  path: ['Ev & Mobilya', 'Mutfak', 'Sofra & Servis', 'Fincan Takımı'],
  isLeaf: true,
}

const draft: PublishDraftResponse = {
  category,
  attributes: [colourAttribute, pieceCountAttribute(['6', '12'])],
  filled: [{ attributeId: '47', valueId: '1', value: 'Beyaz', source: 'details' }],
  missing: ['711'],
  brand: 'Paşabahçe',
  copy: { generationId: 'seo-1', title: 'Paşabahçe Kahve Fincan Takımı', description: 'Altı kişilik.' },
  video: null,
}

function publication(
  status: PublicationView['status'],
  itemStatus: PublicationView['items'][number]['status'],
  reasons: string[] = [],
): PublicationView {
  const item = publicationItemView('item-1', itemStatus, reasons, {
    barcode: 'VTR-1',
    title: 'Paşabahçe Kahve Fincan Takımı',
    productUrl: itemStatus === 'live' ? 'https://www.trendyol.com/fake/p-1' : null,
    generationId: 'img-1',
  })
  return publicationView('pub-1', [item], { status })
}

const calls = () => fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`)

describe('PublishPanel', () => {
  it('sends a seller without a connection to Settings → Integrations', async () => {
    fetchMock.mockImplementation(async () => json(200, connections(false)))
    await renderWeb(<PublishPanel generation={imageGeneration} />)
    const panel = await screen.findByRole('region', { name: 'Publish' })
    expect((await within(panel).findByTestId('publish-not-connected')).textContent).toContain(
      'Connect your Trendyol or Hepsiburada seller account',
    )
    expect(
      within(panel).getByRole('link', { name: 'Settings → Integrations' }).getAttribute('href'),
    ).toContain('tab=integrations')
  })

  it('finds the category, starts from the filled attributes, asks for the missing one, publishes and follows it', async () => {
    const user = userEvent.setup()
    let reads = 0
    let sent: unknown = null
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input)
      if (url === '/api/integrations') return json(200, connections(true))
      if (url.startsWith('/api/integrations/trendyol/categories?')) {
        return json(200, { categories: [category], fetchedAt: '2026-11-29T10:00:00.000Z' })
      }
      if (url === '/api/publications/draft') return json(200, draft)
      if (url === '/api/publications' && init?.method === 'POST') {
        sent = JSON.parse(String(init.body))
        return json(202, { publications: [publication('queued', 'queued')] })
      }
      if (url === '/api/publications/pub-1') {
        reads++
        return json(200, {
          publication: reads < 2 ? publication('reviewing', 'pending') : publication('done', 'live'),
        })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<PublishPanel generation={imageGeneration} />)
    const panel = await screen.findByRole('region', { name: 'Publish' })
    await user.type(await within(panel).findByLabelText('Category'), 'fincan takımı')
    await user.click(within(panel).getByRole('button', { name: 'Search' }))
    const results = await within(panel).findByRole('list', { name: 'Categories found' })
    expect(results.textContent).toContain('Ev & Mobilya › Mutfak › Sofra & Servis › Fincan Takımı')
    await user.click(within(results).getByRole('button', { name: 'Choose Fincan Takımı' }))
    expect(calls()).toContain('GET /api/integrations/trendyol/categories?q=fincan+tak%C4%B1m%C4%B1')

    // The filled colour says where it came from; the brand and copy come from the seller's details.
    const colour = (await within(panel).findByLabelText('Renk')) as HTMLSelectElement
    expect(colour.value).toBe('1')
    const described = (colour.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((descriptionId) => document.getElementById(descriptionId)?.textContent ?? '')
    expect(described).toContain('From your product details')
    expect((within(panel).getByLabelText('Brand') as HTMLInputElement).value).toBe('Paşabahçe')
    expect(within(panel).getByTestId('publish-copy').textContent).toContain('Paşabahçe Kahve Fincan Takımı')

    await user.type(within(panel).getByLabelText('Barcode'), 'VTR-1')
    await user.type(within(panel).getByLabelText('Sale price (TL, VAT included)'), '1.299,90')
    await user.type(within(panel).getByLabelText('Stock'), '20')
    await user.type(within(panel).getByLabelText('Desi'), '2')
    await user.type(within(panel).getByLabelText('Country of origin'), 'tr')
    const submit = within(panel).getByRole('button', { name: 'Publish to Trendyol' })
    await user.click(submit)
    // The required piece count is asked, not guessed: nothing is sent yet.
    expect(await within(panel).findByText(/required attributes marked below/)).toBeTruthy()
    expect(sent).toBeNull()
    await user.selectOptions(within(panel).getByLabelText('Parça Sayısı'), '12')
    await user.click(submit)

    const status = await within(panel).findByTestId('publication-status')
    expect(sent).toEqual({
      marketplace: 'trendyol',
      categoryId: '1111',
      products: [
        {
          imageGenerationIds: ['img-1'],
          copyGenerationId: 'seo-1',
          videoGenerationId: null,
          listing: {
            barcode: 'VTR-1',
            stockCode: 'VTR-1',
            brand: 'Paşabahçe',
            salePrice: 1299.9,
            listPrice: null,
            stock: 20,
            vatRate: 20,
            desi: 2,
            origin: 'TR',
            warrantyMonths: null,
            title: null,
            description: null,
          },
          attributes: [
            { attributeId: '47', valueId: '1', value: 'Beyaz', source: 'details' },
            { attributeId: '711', valueId: '12', value: '12', source: 'seller' },
          ],
        },
      ],
    })
    // Followed until the marketplace decides.
    expect(await within(status).findByText('Live', {}, { timeout: 6000 })).toBeTruthy()
    expect(within(status).getByRole('status').textContent).toContain('Trendyol has decided.')
    const live = within(status).getByRole('link', { name: 'View on Trendyol (opens in a new tab)' })
    expect(live.getAttribute('href')).toBe('https://www.trendyol.com/fake/p-1')
    expect(live.getAttribute('rel')).toContain('noopener')
  }, 15_000)

  it('offers the video made from the image, and says when Trendyol takes it', async () => {
    const user = userEvent.setup()
    const sent: { products: { videoGenerationId: string | null }[] }[] = []
    const both: IntegrationsResponse = {
      integrations: connections(true).integrations.map((integration) => ({
        ...integration,
        isConnected: true,
        accountId: '123456',
      })),
    }
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input)
      if (url === '/api/integrations') return json(200, both)
      if (/^\/api\/integrations\/\w+\/categories\?/.test(url)) {
        return json(200, { categories: [category], fetchedAt: '2026-11-29T10:00:00.000Z' })
      }
      if (url === '/api/publications/draft') {
        return json(200, { ...draft, attributes: [], filled: [], video: { generationId: 'vid-1' } })
      }
      if (url === '/api/publications' && init?.method === 'POST') {
        sent.push(JSON.parse(String(init.body)))
        return json(400, { error: { code: 'VALIDATION_FAILED', message: 'x' } })
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'x' } })
    })
    await renderWeb(<PublishPanel generation={imageGeneration} />)
    const panel = await screen.findByRole('region', { name: 'Publish' })
    const chooseCategory = async () => {
      await user.type(await within(panel).findByLabelText('Category'), 'fincan')
      await user.click(within(panel).getByRole('button', { name: 'Search' }))
      await user.click(await within(panel).findByRole('button', { name: 'Choose Fincan Takımı' }))
    }
    const fillAndPublish = async () => {
      await user.type(within(panel).getByLabelText('Barcode'), 'VTR-1')
      await user.type(within(panel).getByLabelText('Sale price (TL, VAT included)'), '10')
      await user.type(within(panel).getByLabelText('Stock'), '1')
      await user.type(within(panel).getByLabelText('Desi'), '1')
      await user.click(within(panel).getByRole('button', { name: /^Publish to/ }))
      await within(panel).findByRole('alert')
    }

    // Trendyol (the first connection) takes it through its video service once approved: offered,
    // ticked, and the form says when it goes.
    await chooseCategory()
    expect((await within(panel).findByTestId('publish-video')).textContent).toContain(
      'Trendyol takes a product’s video through its video service once the product is approved',
    )
    expect((within(panel).getByTestId('publish-with-video') as HTMLInputElement).checked).toBe(true)
    await user.type(within(panel).getByLabelText('Country of origin'), 'TR')
    await fillAndPublish()
    expect(sent.at(-1)?.products[0]?.videoGenerationId).toBe('vid-1')

    // Hepsiburada takes it as Video1: offered and ticked; unticked, it stays home.
    await user.selectOptions(within(panel).getByLabelText('Publish to'), 'hepsiburada')
    await chooseCategory()
    const withVideo = (await within(panel).findByTestId('publish-with-video')) as HTMLInputElement
    expect(withVideo.checked).toBe(true)
    await user.type(within(panel).getByLabelText('Warranty (months)'), '24')
    await fillAndPublish()
    expect(sent.at(-1)?.products[0]?.videoGenerationId).toBe('vid-1')
    await user.click(withVideo)
    await user.click(within(panel).getByRole('button', { name: 'Publish to Hepsiburada' }))
    await expect.poll(() => sent.length).toBe(3)
    expect(within(panel).queryByText(/once the product is approved/)).toBeNull()
    expect(sent.at(-1)?.products[0]?.videoGenerationId).toBeNull()
  }, 20_000)

  it('shows a rejection in the seller’s words and the marketplace’s own', async () => {
    fetchMock.mockImplementation(async () =>
      json(200, {
        publication: publication('done', 'rejected', ['Görsel: Ürün görseli beyaz fonda değil.']),
      }),
    )
    await renderWeb(<PublicationStatus id="pub-1" onAgain={() => {}} />)
    const status = await screen.findByTestId('publication-status')
    expect(within(status).getByText('Rejected')).toBeTruthy()
    expect(status.textContent).toContain('An image is not on a plain white background.')
    expect(status.textContent).toContain('Trendyol said: “Görsel: Ürün görseli beyaz fonda değil.”')
  })
})
