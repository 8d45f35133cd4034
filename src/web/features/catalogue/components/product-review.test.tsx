import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { BatchRowView, BatchView, RowCopyView } from '#shared/contracts/catalogue.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { assetView } from '#tests/support/web-views.ts'
import { ProductReview } from './product-review.tsx'

const fetchMock = stubFetchForEachTest()

const picture = (id: string) => assetView(id, { mime: 'image/jpeg', width: 800, height: 800 })

const row: BatchRowView = {
  id: 'row-1',
  line: 2,
  sku: 'FN-1',
  name: 'Kahve Fincanı',
  state: 'done',
  photo: picture('photo-1'),
  outputs: [
    {
      generationId: 'g-image',
      tool: 'product',
      mode: 'image',
      status: 'succeeded',
      errorCode: null,
      thumbnail: picture('result-1'),
    },
    {
      generationId: 'g-seo',
      tool: 'product',
      mode: 'seo',
      status: 'succeeded',
      errorCode: null,
      thumbnail: null,
    },
  ],
  isCopyEdited: false,
  excludedResults: [],
}

const generated = {
  title: 'Porselen Kahve Fincanı',
  description: 'İki kişilik porselen kahve fincanı.',
  features: ['Porselen', 'İki kişilik', 'Beyaz', 'Hafif'],
  keywords: ['kahve fincanı', 'porselen fincan'],
}
const copy: RowCopyView = { rowId: 'row-1', generated, edited: null, brand: null }

function renderReview(
  overrides: {
    presetId?: string | null
    onChange?: (view: BatchView) => void
    onCopyEdited?: (rowId: string, isEdited: boolean) => void
  } = {},
) {
  return renderWeb(
    <ProductReview
      batchId="batch-1"
      presetId={overrides.presetId ?? null}
      outputs={{ studio: { prompt: 'x', aspectRatio: '1:1' }, seo: true }}
      row={row}
      onChange={overrides.onChange ?? (() => {})}
      onCopyEdited={overrides.onCopyEdited ?? (() => {})}
      onClose={() => {}}
    />,
    { route: '/app/catalogue/batch-1' },
  )
}

/**
 * Renders the review with the server answering `method` with the batch's rows (anything else with
 * the copy); `sent` waits for the batch to change and gives the request that changed it.
 */
async function renderAnswering(method: 'PUT' | 'POST') {
  const onChange = vi.fn()
  fetchMock.mockImplementation(async (_input, init) =>
    init?.method === method ? json(200, { rows: [] }) : json(200, copy),
  )
  await renderReview({ onChange })
  return {
    user: userEvent.setup(),
    sent: async () => {
      await vi.waitFor(() => expect(onChange).toHaveBeenCalled())
      const call = fetchMock.mock.calls.find(([, init]) => init?.method === method)
      return { url: String(call?.[0]), body: JSON.parse(String(call?.[1]?.body)) }
    },
  }
}

const counterOf = (label: string) => {
  const field = screen.getByLabelText(label)
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ')
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

describe('ProductReview', () => {
  it('counts characters against the limits as the seller types, and says when a limit is passed', async () => {
    fetchMock.mockImplementation(async () => json(200, copy))
    await renderReview()
    const title = await screen.findByLabelText<HTMLInputElement>('Title')
    expect(title.value).toBe(generated.title)
    expect(counterOf('Title')).toContain(`${generated.title.length} of 60 characters`)
    expect(counterOf('Meta description')).toContain(`${generated.description.length} of 160 characters`)
    expect(screen.getByTestId('features-counter').textContent).toBe('4 lines; 4 to 6 needed')
    expect(screen.getByTestId('keywords-counter').textContent).toBe('2 of 10 keywords')

    const user = userEvent.setup()
    await user.clear(title)
    await user.type(title, 'a'.repeat(62))
    expect(counterOf('Title')).toContain('62 of 60 characters: 2 too many')
    expect(title.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByTestId('review-announcer').textContent).toContain(
      'Title: 61 of 60 characters: 1 too many',
    )

    const keywords = screen.getByLabelText<HTMLTextAreaElement>('Keywords')
    await user.type(keywords, '\nfincan, 2 kişilik')
    expect(screen.getByTestId('keywords-counter').textContent).toBe('3 of 10 keywords')
    expect(counterOf('Keywords')).toContain('“fincan, 2 kişilik” has a comma or semicolon')
  })

  it('saves the edited copy, one feature and keyword a line, and refuses to send copy past a limit', async () => {
    const sent: unknown[] = []
    fetchMock.mockImplementation(async (_input, init) => {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body))
        sent.push(body)
        return json(200, { ...copy, edited: body })
      }
      return json(200, copy)
    })
    const onCopyEdited = vi.fn()
    await renderReview({ onCopyEdited })
    const user = userEvent.setup()
    const title = await screen.findByLabelText<HTMLInputElement>('Title')
    await user.clear(title)
    await user.type(title, 'b'.repeat(61))
    await user.click(screen.getByRole('button', { name: 'Save copy' }))
    expect(sent).toEqual([])
    expect(screen.getByRole('alert').textContent).toBe('Fix the fields marked above, then save.')

    await user.clear(title)
    await user.type(title, '  Kırmızı Kahve Fincanı ')
    await user.type(screen.getByLabelText('Keywords'), '\n\n türk kahvesi ')
    await user.click(screen.getByRole('button', { name: 'Save copy' }))
    await vi.waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toEqual({
      ...generated,
      title: 'Kırmızı Kahve Fincanı',
      keywords: [...generated.keywords, 'türk kahvesi'],
    })
    expect(String(fetchMock.mock.calls.at(-1)?.[0])).toBe('/api/catalogue/batches/batch-1/rows/row-1/copy')
    expect(await screen.findByText('Your edit: the ZIP uses it instead of the generated copy.')).toBeTruthy()
    expect(screen.getByTestId('review-announcer').textContent).toBe('Copy saved. The ZIP uses it.')
    // Focus stays where the seller was: the form was not rebuilt.
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('  Kırmızı Kahve Fincanı ')
    expect(screen.getByRole('button', { name: 'Back to the generated copy' })).toBeTruthy()
    expect(onCopyEdited).toHaveBeenCalledWith('row-1', true)
  })

  it('goes back to the generated copy, keeping the focus in the form', async () => {
    const edited = { ...generated, title: 'Kırmızı Kahve Fincanı' }
    const onCopyEdited = vi.fn()
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'DELETE' ? json(200, copy) : json(200, { ...copy, edited }),
    )
    await renderReview({ onCopyEdited })
    const title = await screen.findByLabelText<HTMLInputElement>('Title')
    expect(title.value).toBe(edited.title)
    expect(screen.getByTestId('copy-source').textContent).toBe(
      'Your edit: the ZIP uses it instead of the generated copy.',
    )
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to the generated copy' }))
    await vi.waitFor(() => expect(title.value).toBe(generated.title))
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true)
    expect(document.activeElement).toBe(title)
    expect(screen.queryByRole('button', { name: 'Back to the generated copy' })).toBeNull()
    expect(onCopyEdited).toHaveBeenCalledWith('row-1', false)
  })

  it("shows the server's reason on the field it names", async () => {
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'PUT'
        ? json(400, {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'bad',
              details: { fields: { 'keywords.0': 'invalid' } },
            },
          })
        : json(200, copy),
    )
    await renderReview()
    const user = userEvent.setup()
    await screen.findByLabelText('Title')
    await user.click(screen.getByRole('button', { name: 'Save copy' }))
    await vi.waitFor(() => expect(counterOf('Keywords')).toContain('This value is not valid.'))
    expect(screen.getByLabelText('Keywords').getAttribute('aria-invalid')).toBe('true')
  })

  it('keeps the focus on Save when a save is refused, here or by the server on one feature line', async () => {
    const refusal = {
      code: 'VALIDATION_FAILED',
      message: 'bad',
      details: { fields: { 'features.3': 'tooLong', 'features.1': 'required' } },
    }
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'PUT' ? json(400, { error: refusal }) : json(200, copy),
    )
    await renderReview()
    const user = userEvent.setup()
    const title = await screen.findByLabelText('Title')
    await user.clear(title)
    const save = screen.getByRole('button', { name: 'Save copy' })
    await user.click(save)
    expect(screen.getByRole('alert').textContent).toBe('Fix the fields marked above, then save.')
    expect(counterOf('Title')).toContain('Write something here.')
    expect(document.activeElement).toBe(save)
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false)

    // Once a save was tried, the marks follow the typing.
    await user.type(title, 'Yeni Fincan')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(title.getAttribute('aria-invalid')).toBeNull()
    await user.click(save)
    await vi.waitFor(() => expect(counterOf('Features')).toContain('This is too long.'))
    expect(counterOf('Features')).not.toContain('This field is required.')
    expect(screen.getByRole('alert').textContent).toBe('Please check the highlighted fields.')
    expect(document.activeElement).toBe(save)
    await user.type(screen.getByLabelText('Features'), 'x')
    expect(screen.getByLabelText('Features').getAttribute('aria-invalid')).toBeNull()
  })

  it('sends no save while going back to the generated copy', async () => {
    let answerRevert: (response: Response) => void = () => undefined
    fetchMock.mockImplementation(async (_input, init) => {
      if (init?.method === 'DELETE') return new Promise<Response>((resolve) => (answerRevert = resolve))
      return json(200, { ...copy, edited: generated })
    })
    await renderReview()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Back to the generated copy' }))
    const reverting = screen.getByRole('button', { name: 'Going back…' })
    expect(reverting.getAttribute('aria-busy')).toBe('true')
    await user.click(screen.getByRole('button', { name: 'Save copy' }))
    expect(screen.getByRole('button', { name: 'Save copy' }).getAttribute('aria-busy')).toBe('false')
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false)
    answerRevert(json(200, copy))
    await vi.waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Back to the generated copy' })).toBeNull(),
    )
  })

  it("checks the copy against the batch marketplace's rules as it is typed", async () => {
    fetchMock.mockImplementation(async () => json(200, { ...copy, brand: 'Paşabahçe' }))
    await renderReview({ presetId: 'trendyol' })
    const check = await screen.findByTestId('review-check')
    expect(within(check).getByRole('heading').textContent).toBe('Trendyol check')
    const [brand] = within(check).getAllByTestId('check-result')
    expect(brand?.dataset.status).toBe('warn')
    expect(brand?.textContent).toContain('Brand in title')
    const user = userEvent.setup()
    const title = screen.getByLabelText('Title')
    await user.clear(title)
    await user.type(title, 'Paşabahçe Porselen Kahve Fincanı')
    expect(within(check).queryAllByTestId('check-result')).toEqual([])
    expect(within(check).getByTestId('check-passes').textContent).toBe(
      'The copy meets every Trendyol copy rule we know.',
    )
  })

  it('leaves a made image out of the ZIP when its box is unticked', async () => {
    const { user, sent } = await renderAnswering('PUT')
    const box = await screen.findByRole<HTMLInputElement>('checkbox', { name: 'In the ZIP: Studio image' })
    expect(box.checked).toBe(true)
    await user.click(box)
    const call = await sent()
    expect(call.url).toBe('/api/catalogue/batches/batch-1/rows/row-1/exclusions')
    expect(call.body).toEqual({ excluded: ['g-image'] })
  })

  it('asks before making the copy again, then queues it', async () => {
    const { user, sent } = await renderAnswering('POST')
    await user.click(await screen.findByRole('button', { name: 'Write the copy again' }))
    const confirm = screen.getByTestId('regenerate-confirm')
    expect(document.activeElement?.textContent).toBe('Yes, make it again')
    await user.click(within(confirm).getByRole('button', { name: 'Yes, make it again' }))
    const call = await sent()
    expect(call.url).toBe('/api/catalogue/batches/batch-1/rows/row-1/regenerate')
    expect(call.body).toEqual({ scope: 'seo' })
  })
})
