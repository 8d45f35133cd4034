import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { assetView, imageGenerationView } from '#tests/support/web-views.ts'
import { useStudioJob } from '../hooks/use-studio-job.ts'
import { StudioResultPanel } from './studio-result-panel.tsx'

const fetchMock = stubFetchForEachTest()

const image = imageGenerationView('g1')
const video = imageGenerationView('v1', {}, { mode: 'video', status: 'queued', sourceGenerationId: 'g1' })

/** The result panel of a studio page showing the finished image g1. */
function Panel() {
  const studio = useStudioJob({ onSettled: () => undefined })
  return <StudioResultPanel studio={studio} videoQuota={{ kind: 'unlimited' }} />
}

describe('StudioResultPanel: the convert-to-video box', () => {
  it('takes another try after a refused start, with the prompt as typed', async () => {
    const videoRequests: unknown[] = []
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input)
      if (url === '/api/generations/g1/video' && init?.method === 'POST') {
        videoRequests.push(JSON.parse(String(init.body)))
        return videoRequests.length === 1
          ? json(429, { error: { code: 'RATE_LIMITED', message: 'slow down' } })
          : json(202, { generation: video })
      }
      if (url.startsWith('/api/generations/g1')) return json(200, { generation: image })
      if (url.startsWith('/api/generations/v1')) return json(200, { generation: video })
      return json(404, { error: { code: 'NOT_FOUND', message: 'not found' } })
    })
    const user = userEvent.setup()
    await renderWeb(<Panel />, { route: '/app/create?job=g1' })

    const box = await screen.findByTestId('convert-to-video')
    await user.type(screen.getByLabelText('Video prompt (optional)'), 'slow turn')
    await user.click(screen.getByTestId('create-video'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    )
    expect(screen.getByLabelText<HTMLInputElement>('Video prompt (optional)').value).toBe('slow turn')

    await waitFor(() => expect(screen.getByTestId('create-video').hasAttribute('disabled')).toBe(false))
    await user.click(screen.getByTestId('create-video'))
    await waitFor(() => expect(videoRequests).toEqual([{ prompt: 'slow turn' }, { prompt: 'slow turn' }]))
    expect(await screen.findByTestId('job-status')).toBeTruthy()
    expect(box.contains(screen.getByTestId('job-status'))).toBe(true)
  })
})

/** A studio page's result panel whose marketplace slot says what the page was given. */
function WithMarketplace() {
  const studio = useStudioJob({ onSettled: () => undefined })
  return (
    <StudioResultPanel
      studio={studio}
      videoQuota={{ kind: 'unlimited' }}
      marketplace={(generation, madeFrom) => (
        <p data-testid="page-panel">{`${generation.id} from ${madeFrom?.id ?? 'nothing'}`}</p>
      )}
    />
  )
}

describe("StudioResultPanel: a finished video in its image's place", () => {
  it('gives the page the image it was made from beside the video, so the image can still be published', async () => {
    const finished = imageGenerationView(
      'v1',
      {},
      {
        mode: 'video',
        sourceGenerationId: 'g1',
        result: {
          type: 'video',
          video: assetView('clip', { mime: 'video/mp4' }),
          poster: null,
          promptUsed: 'push-in',
          provider: 'offline',
        },
      },
    )
    fetchMock.mockImplementation(async (input) => {
      const url = String(input)
      if (url.startsWith('/api/generations/g1')) return json(200, { generation: image })
      if (url.startsWith('/api/generations/v1')) return json(200, { generation: finished })
      return json(404, { error: { code: 'NOT_FOUND', message: 'not found' } })
    })
    await renderWeb(<WithMarketplace />, { route: '/app/create?job=g1&video=v1' })

    expect((await screen.findByTestId('page-panel')).textContent).toBe('v1 from g1')
  })

  it('gives an image result alone', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).startsWith('/api/generations/g1')
        ? json(200, { generation: image })
        : json(404, { error: { code: 'NOT_FOUND', message: 'not found' } }),
    )
    await renderWeb(<WithMarketplace />, { route: '/app/create?job=g1' })

    expect((await screen.findByTestId('page-panel')).textContent).toBe('g1 from nothing')
  })
})
