import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { MarketplaceCheckView } from '#shared/contracts/marketplaces.ts'
import type { CheckResult } from '#shared/marketplaces/check.ts'
import type { RuleSource } from '#shared/marketplaces/types.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { imageGenerationView } from '#tests/support/web-views.ts'
import { MarketplacePanel } from './marketplace-panel.tsx'

const fetchMock = stubFetchForEachTest()

const imageGeneration = imageGenerationView('img-1')

const seoGeneration: GenerationView = {
  ...imageGeneration,
  id: 'seo-1',
  mode: 'seo',
  result: {
    type: 'seo',
    model: 'offline',
    provider: 'offline',
    title: 'A very long title',
    description: 'A description.',
    features: ['Ceramic'],
    keywords: ['mug'],
  },
}

const trendyolSource: RuleSource = {
  url: 'https://developers.trendyol.com/docs/ürün-yaratma-v2',
  confidence: 'official-copy',
  date: '2026-09-18',
}
const amazonSource: RuleSource = {
  url: 'https://sellercentral.amazon.com.au/help/hub/reference/external/T8RSE9S9NK4LP6Z',
  confidence: 'official',
  date: '2026-10',
}

const facts = {
  width: 1080,
  height: 1080,
  bytes: 200_000,
  format: 'jpeg' as const,
  colourSpace: 'srgb' as const,
  borderWhiteShare: 1,
  borderPureWhiteShare: 0.5,
  product: { fillShare: 0.83, areaShare: 0.5, touchesEdge: false },
  isGenerated: true,
  text: null,
}

function imageView(
  profile: MarketplaceCheckView['profile'],
  results: CheckResult[],
  slot: 'main' | 'additional' = 'main',
): MarketplaceCheckView {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length
  return {
    profile,
    generationId: 'img-1',
    image: { slot, facts, results },
    video: null,
    copy: null,
    exportUrl: `/api/generations/img-1/marketplace/${profile}/export?n=1`,
    summary: { pass: count('pass'), warn: count('warn'), fail: count('fail') },
  }
}

const trendyolResults: CheckResult[] = [
  {
    ruleId: 'image.realPhoto',
    status: 'pass',
    reason: { key: 'marketplaces.reasons.realPhoto', values: {} },
    source: trendyolSource,
  },
  {
    ruleId: 'image.size',
    status: 'fail',
    reason: {
      key: 'marketplaces.reasons.sizeNotExact',
      values: { width: '1080', height: '1080', requiredWidth: '1200', requiredHeight: '1800' },
    },
    fix: 'resize',
    source: trendyolSource,
  },
  {
    ruleId: 'image.ratio',
    status: 'fail',
    reason: {
      key: 'marketplaces.reasons.ratioWrong',
      values: { width: '1080', height: '1080', expected: '2:3' },
    },
    fix: 'resize',
    source: trendyolSource,
  },
  {
    ruleId: 'image.fill',
    status: 'warn',
    reason: { key: 'marketplaces.reasons.fillTooSmall', values: { share: 83, min: 85 } },
    fix: 'fill-frame',
    source: { ...trendyolSource, confidence: '3p' },
  },
  {
    ruleId: 'image.background',
    status: 'not-published',
    reason: { key: 'marketplaces.reasons.notPublished', values: {} },
    source: null,
  },
]

const amazonResults: CheckResult[] = [
  {
    ruleId: 'image.background',
    status: 'fail',
    reason: { key: 'marketplaces.reasons.backgroundOffWhite', values: { share: 50 } },
    fix: 'white-background',
    source: amazonSource,
  },
]

type Routes = {
  preference?: string | null
  preferenceStatus?: number
  checks?: Record<string, MarketplaceCheckView>
  checkStatus?: number
}

function answer(routes: Routes) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input)
    if (url === '/api/preferences') {
      if (init?.method === 'PATCH') return json(200, JSON.parse(String(init.body)))
      if (routes.preferenceStatus) return json(routes.preferenceStatus, {})
      return json(200, { marketplaceProfile: routes.preference ?? null })
    }
    const view = routes.checks?.[url]
    if (routes.checkStatus) return json(routes.checkStatus, { error: { code: 'INTERNAL', message: 'x' } })
    if (view) return json(200, view)
    return json(404, { error: { code: 'NOT_FOUND', message: 'Not found', requestId: 'r' } })
  })
}

const checkUrl = (profile: string, slot = 'main', id = 'img-1') =>
  `/api/generations/${id}/marketplace/${profile}?slot=${slot}`
const calls = () => fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`)

describe('MarketplacePanel', () => {
  it('starts from the saved preference and shows each rule with its status, reason, source and fix', async () => {
    answer({
      preference: 'trendyol',
      checks: { [checkUrl('trendyol')]: imageView('trendyol', trendyolResults) },
    })
    await renderWeb(<MarketplacePanel generation={imageGeneration} />)

    const panel = await screen.findByRole('region', { name: 'Marketplace' })
    const list = await within(panel).findByRole('list', { name: 'Trendyol checklist' })
    expect(calls()).toEqual(['GET /api/preferences', `GET ${checkUrl('trendyol')}`])
    const select = within(panel).getByRole('combobox', { name: 'Marketplace' }) as HTMLSelectElement
    expect(select.value).toBe('trendyol')
    expect(within(panel).getByTestId('marketplace-summary').textContent).toBe(
      '2 failing, 1 to check, 1 passing',
    )

    const items = within(list).getAllByTestId('marketplace-rule')
    // Failures first; each status is written out, not only coloured; unpublished rules are no rows.
    expect(items.map((item) => item.getAttribute('data-rule'))).toEqual([
      'image.size',
      'image.ratio',
      'image.fill',
      'image.realPhoto',
    ])
    const size = items[0] as HTMLElement
    expect(within(size).getByText('Image size')).toBeTruthy()
    expect(within(size).getByTestId('rule-status').textContent).toBe('Fails')
    expect(within(size).getByTestId('rule-reason').textContent).toBe(
      'Image is 1080×1080 px; it must be 1200×1800.',
    )
    const source = within(size).getByRole('link', { name: /^Official \(read from a copy\), 2026-09-18/ })
    expect(source.getAttribute('href')).toBe(trendyolSource.url)
    const fix = within(size).getByRole('link', { name: 'Make 1200×1800' })
    expect(fix.getAttribute('href')).toBe('/api/generations/img-1/marketplace/trendyol/export?n=1')

    const fill = items[2] as HTMLElement
    expect(within(fill).getByTestId('rule-status').textContent).toBe('Check')
    expect(within(fill).getByTestId('rule-reason').textContent).toBe(
      'The product fills 83% of the frame; at least 85% is needed.',
    )
    expect(within(fill).getByRole('link', { name: /^Third-party hint/ })).toBeTruthy()
    // The export does not fill the frame: that fix is advice, not a link.
    expect(within(fill).getByTestId('rule-fix-advice').textContent).toBe('What to do: Fill the frame')
    expect(within(items[3] as HTMLElement).getByTestId('rule-status').textContent).toBe('Passes')
    const unpublished = within(list).getByTestId('marketplace-unpublished')
    expect(unpublished.textContent).toBe('Not published by Trendyol, so not checked: White background.')

    const download = within(panel).getByRole('link', { name: 'Download for Trendyol (1200×1800 JPEG)' })
    expect(download.getAttribute('href')).toBe('/api/generations/img-1/marketplace/trendyol/export?n=1')
    expect(download.hasAttribute('download')).toBe(true)
  })

  it('names the rules a marketplace does not publish in one quiet line after the checked ones', async () => {
    const unpublished = (ruleId: CheckResult['ruleId']): CheckResult => ({
      ruleId,
      status: 'not-published',
      reason: { key: 'marketplaces.reasons.notPublished', values: {} },
      source: null,
    })
    const results: CheckResult[] = [
      unpublished('image.fileSize'),
      unpublished('image.format'),
      ...trendyolResults.slice(0, 3),
      unpublished('image.colourSpace'),
      unpublished('image.fill'),
      unpublished('image.cutOff'),
      unpublished('image.text'),
      unpublished('image.realPhoto'),
      unpublished('image.background'),
    ]
    answer({ preference: 'trendyol', checks: { [checkUrl('trendyol')]: imageView('trendyol', results) } })
    await renderWeb(<MarketplacePanel generation={imageGeneration} />, { locale: 'tr' })

    const list = await screen.findByRole('list', { name: 'Trendyol kontrol listesi' })
    const rows = within(list).getAllByRole('listitem')
    // Three rules checked, and one line for the eight with no published source: no "Not published" rows.
    expect(rows).toHaveLength(4)
    expect(within(list).queryByText('Yayımlanmamış')).toBeNull()
    const line = rows[3] as HTMLElement
    expect(line.getAttribute('data-testid')).toBe('marketplace-unpublished')
    expect(line.textContent).toBe(
      'Trendyol bunlar için kural yayımlamıyor, bu yüzden kontrol edilmedi: Dosya boyutu, Dosya biçimi, Renk uzayı, Ürünün kapladığı alan, Ürün kadrajda, Yazı ve filigran, Gerçek fotoğraf, Beyaz arka plan.',
    )
    expect(within(line).queryByRole('link')).toBeNull()
  })

  it('saves a new profile as the default, loads its check and keeps focus on the select', async () => {
    answer({
      preference: 'trendyol',
      checks: {
        [checkUrl('trendyol')]: imageView('trendyol', trendyolResults),
        [checkUrl('amazon-tr')]: imageView('amazon-tr', amazonResults),
      },
    })
    const user = userEvent.setup()
    await renderWeb(<MarketplacePanel generation={imageGeneration} />)
    await screen.findByRole('list', { name: 'Trendyol checklist' })
    const select = screen.getByRole('combobox', { name: 'Marketplace' })

    await user.selectOptions(select, 'amazon-tr')
    const list = await screen.findByRole('list', { name: 'Amazon.com.tr checklist' })
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')
    expect(String(patch?.[0])).toBe('/api/preferences')
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ marketplaceProfile: 'amazon-tr' })
    expect(calls()).toContain(`GET ${checkUrl('amazon-tr')}`)
    await vi.waitFor(() =>
      expect(screen.getByTestId('marketplace-save-status').textContent).toBe(
        'Amazon.com.tr is now your default marketplace.',
      ),
    )
    expect(document.activeElement).toBe(select)

    const [background] = within(list).getAllByRole('listitem')
    expect(
      within(background as HTMLElement)
        .getByRole('link', { name: 'Pure white background' })
        .getAttribute('href'),
    ).toBe('/api/generations/img-1/marketplace/amazon-tr/export?n=1')
    expect(screen.getByTestId('marketplace-summary').textContent).toBe('1 failing, 0 to check, 0 passing')
    expect(screen.getByRole('link', { name: 'Download for Amazon.com.tr (2000×2000 JPEG)' })).toBeTruthy()
  })

  it('checks the additional image slot when chosen', async () => {
    answer({
      preference: 'trendyol',
      checks: {
        [checkUrl('trendyol')]: imageView('trendyol', trendyolResults),
        [checkUrl('trendyol', 'additional')]: imageView(
          'trendyol',
          trendyolResults.filter((r) => r.status === 'pass'),
          'additional',
        ),
      },
    })
    const user = userEvent.setup()
    await renderWeb(<MarketplacePanel generation={imageGeneration} />)
    await screen.findByRole('list', { name: 'Trendyol checklist' })
    await user.click(screen.getByRole('radio', { name: 'Additional image' }))
    await vi.waitFor(() =>
      expect(screen.getByTestId('marketplace-summary').textContent).toBe('All 1 published rules pass.'),
    )
    expect(calls()).toContain(`GET ${checkUrl('trendyol', 'additional')}`)
    expect(calls().some((call) => call.startsWith('PATCH'))).toBe(false)
  })

  it('asks for a marketplace when none is saved, and checks nothing until one is chosen', async () => {
    answer({ preference: null, checks: { [checkUrl('n11')]: imageView('n11', trendyolResults) } })
    const user = userEvent.setup()
    await renderWeb(<MarketplacePanel generation={imageGeneration} />)
    expect(await screen.findByTestId('marketplace-choose-hint')).toBeTruthy()
    expect(calls()).toEqual(['GET /api/preferences'])
    await user.selectOptions(screen.getByRole('combobox', { name: 'Marketplace' }), 'n11')
    expect(await screen.findByRole('list', { name: 'n11 checklist' })).toBeTruthy()
  })

  it('shows an error with Try again when the check cannot be loaded', async () => {
    answer({ preference: 'trendyol', checkStatus: 500 })
    const user = userEvent.setup()
    await renderWeb(<MarketplacePanel generation={imageGeneration} />)
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('The check could not be loaded.')).toBeTruthy()
    answer({
      preference: 'trendyol',
      checks: { [checkUrl('trendyol')]: imageView('trendyol', trendyolResults) },
    })
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('list', { name: 'Trendyol checklist' })).toBeTruthy()
  })

  it('shows the copy fitted to the limits behind "Shorten title", with copy buttons', async () => {
    const view: MarketplaceCheckView = {
      profile: 'trendyol',
      generationId: 'seo-1',
      image: null,
      video: null,
      copy: {
        results: [
          {
            ruleId: 'copy.titleLength',
            status: 'fail',
            reason: { key: 'marketplaces.reasons.titleTooLong', values: { length: 101, max: 100 } },
            fix: 'shorten-title',
            source: trendyolSource,
          },
          {
            ruleId: 'copy.brand',
            status: 'warn',
            reason: { key: 'marketplaces.reasons.brandUnknown', values: {} },
            source: { vitrin: true, note: 'advice' },
          },
        ],
        fitted: { title: 'A shorter title', description: 'A description.' },
      },
      exportUrl: null,
      summary: { pass: 0, warn: 1, fail: 1 },
    }
    answer({ preference: 'trendyol', checks: { [checkUrl('trendyol', 'main', 'seo-1')]: view } })
    const user = userEvent.setup()
    await renderWeb(<MarketplacePanel generation={seoGeneration} />)
    const list = await screen.findByRole('list', { name: 'Trendyol checklist' })
    // No slot choice and no download for copy.
    expect(screen.queryByRole('radio')).toBeNull()
    expect(screen.queryByTestId('marketplace-download')).toBeNull()
    const [title, brand] = within(list).getAllByRole('listitem')
    expect(within(brand as HTMLElement).getByTestId('rule-source').textContent).toBe(
      "Source: Vitrin's advice",
    )

    const fitted = screen.getByTestId('marketplace-fitted')
    expect(fitted.hidden).toBe(true)
    const shorten = within(title as HTMLElement).getByRole('button', { name: 'Shorten title' })
    expect(shorten.getAttribute('aria-expanded')).toBe('false')
    await user.click(shorten)
    expect(fitted.hidden).toBe(false)
    expect(shorten.getAttribute('aria-expanded')).toBe('true')
    expect(within(fitted).getByTestId('fitted-title').textContent).toBe('A shorter title')
    expect(within(fitted).getByRole('button', { name: 'Copy Title' })).toBeTruthy()
    expect(within(fitted).getByRole('button', { name: 'Copy Description' })).toBeTruthy()
  })

  it('speaks Turkish: profile status, reason and download label', async () => {
    answer({
      preference: 'trendyol',
      checks: { [checkUrl('trendyol')]: imageView('trendyol', trendyolResults) },
    })
    await renderWeb(<MarketplacePanel generation={imageGeneration} />, { locale: 'tr' })
    const list = await screen.findByRole('list', { name: 'Trendyol kontrol listesi' })
    const [size] = within(list).getAllByRole('listitem')
    expect(within(size as HTMLElement).getByTestId('rule-status').textContent).toBe('Uygun değil')
    expect(within(size as HTMLElement).getByTestId('rule-reason').textContent).toBe(
      'Görsel 1080×1080 px; 1200×1800 olmalı.',
    )
    expect(within(size as HTMLElement).getByRole('link', { name: '1200×1800 yap' })).toBeTruthy()
    expect(screen.getByRole('combobox', { name: 'Pazaryeri' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Trendyol için indir (1200×1800 JPEG)' })).toBeTruthy()
    expect(screen.getByTestId('marketplace-summary').textContent).toBe(
      '2 uygun değil, 1 dikkat istiyor, 1 uygun',
    )
  })
})
