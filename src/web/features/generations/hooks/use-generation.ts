import { useEffect, useRef, useState } from 'react'
import { type GenerationView, isTerminalStatus } from '#shared/contracts/generations.ts'
import { ApiError } from '#web/lib/api-client.ts'
import { getGeneration } from '../api/generations-api.ts'

/** How often to ask when the event stream is not available (or keeps failing). */
const pollMs = 2000

export type WatchState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; generation: GenerationView }
  | { status: 'error'; error: unknown }

/**
 * Follows one generation until it is finished: the server's event stream first
 * (GET /api/generations/:id/events), and plain polling when that stream cannot be used or
 * breaks. `initial` (e.g. the 202 answer) shows at once; `onSettled` runs once when the
 * generation reaches a final state while watched (to refresh quotas, lists, …).
 */
export function useGenerationWatch(
  id: string | null,
  options: { initial?: GenerationView | null; onSettled?: (generation: GenerationView) => void } = {},
): WatchState {
  const [state, setState] = useState<WatchState>(() =>
    id && options.initial?.id === id
      ? { status: 'ready', generation: options.initial }
      : id
        ? { status: 'loading' }
        : { status: 'idle' },
  )
  const onSettledRef = useRef(options.onSettled)
  onSettledRef.current = options.onSettled
  const initialRef = useRef(options.initial)
  initialRef.current = options.initial

  useEffect(() => {
    if (!id) {
      setState({ status: 'idle' })
      return
    }
    let isActive = true
    let source: EventSource | null = null
    let timer: ReturnType<typeof setTimeout> | null = null
    let settled = false
    const initial = initialRef.current
    setState(initial?.id === id ? { status: 'ready', generation: initial } : { status: 'loading' })

    const accept = (generation: GenerationView) => {
      if (!isActive) return
      setState({ status: 'ready', generation })
      if (isTerminalStatus(generation.status) && !settled) {
        settled = true
        source?.close()
        if (timer) clearTimeout(timer)
        onSettledRef.current?.(generation)
      }
    }

    const poll = async () => {
      timer = null
      try {
        const generation = await getGeneration(id)
        accept(generation)
        if (!isTerminalStatus(generation.status) && isActive) timer = setTimeout(poll, pollMs)
      } catch (error) {
        if (!isActive) return
        // A vanished generation (deleted elsewhere) ends the watch, and so does an ended session
        // (the API client has the session checked on a 401); anything else is retried.
        if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'UNAUTHORIZED')) {
          setState({ status: 'error', error })
          return
        }
        timer = setTimeout(poll, pollMs * 2)
      }
    }

    const fallBackToPolling = () => {
      source?.close()
      source = null
      if (isActive && !settled && !timer) void poll()
    }

    if (typeof EventSource === 'function') {
      source = new EventSource(`/api/generations/${encodeURIComponent(id)}/events`)
      source.addEventListener('generation', (event) => {
        try {
          accept(JSON.parse((event as MessageEvent<string>).data) as GenerationView)
        } catch {
          fallBackToPolling()
        }
      })
      // The server closes the stream after the final state; any other end or failure polls.
      source.onerror = () => {
        if (!settled) fallBackToPolling()
      }
    } else {
      void poll()
    }

    return () => {
      isActive = false
      source?.close()
      if (timer) clearTimeout(timer)
    }
  }, [id])

  return state
}

/** Whole seconds since `since` (ISO), ticking every second while `isRunning`. */
export function useElapsedSeconds(since: string | null, isRunning: boolean, until?: string | null): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!isRunning) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [isRunning])
  if (!since) return 0
  const end = !isRunning && until ? new Date(until).getTime() : now
  return Math.max(0, Math.floor((end - new Date(since).getTime()) / 1000))
}
