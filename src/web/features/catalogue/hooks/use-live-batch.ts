import { useEffect } from 'react'
import type { BatchView } from '#shared/contracts/catalogue.ts'
import { ApiError } from '#web/lib/api-client.ts'
import { type Resource, useResource } from '#web/lib/use-resource.ts'
import { batchEventsUrl, getBatch } from '../api/catalogue-api.ts'

/** How often to ask when the event stream cannot be used (or broke). */
const pollMs = 3000

/**
 * One batch, loaded from GET …/batches/:id (so leaving and coming back shows where it is) and,
 * while it runs, kept current by the server's events (`batch`, a whole BatchView each). When the
 * stream cannot be opened or breaks, the batch is asked for again every few seconds instead.
 */
export function useLiveBatch(id: string): Resource<BatchView> {
  const batch = useResource((signal) => getBatch(id, signal), { key: id })
  const { replace } = batch
  const isRunning = batch.status === 'ready' && batch.data.batch.status === 'running'

  useEffect(() => {
    if (!isRunning) return
    let isActive = true
    let source: EventSource | null = null
    let timer: ReturnType<typeof setTimeout> | null = null
    const controller = new AbortController()

    const poll = async () => {
      timer = null
      try {
        const view = await getBatch(id, controller.signal)
        if (!isActive) return
        replace(view)
        // A batch that stopped running ends this effect (isRunning turns false).
        if (view.batch.status === 'running') timer = setTimeout(poll, pollMs)
      } catch (error) {
        if (!isActive) return
        if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'UNAUTHORIZED')) return
        timer = setTimeout(poll, pollMs * 2)
      }
    }

    const fallBackToPolling = () => {
      source?.close()
      source = null
      if (isActive && !timer) timer = setTimeout(poll, 0)
    }

    if (typeof EventSource === 'function') {
      source = new EventSource(batchEventsUrl(id))
      source.addEventListener('batch', (event) => {
        if (!isActive) return
        try {
          replace(JSON.parse((event as MessageEvent<string>).data) as BatchView)
        } catch {
          fallBackToPolling()
        }
      })
      // The server ends the stream once the batch stops; any earlier end or failure polls.
      source.onerror = () => fallBackToPolling()
    } else {
      void poll()
    }

    return () => {
      isActive = false
      controller.abort()
      source?.close()
      if (timer) clearTimeout(timer)
    }
  }, [id, isRunning, replace])

  return batch
}
