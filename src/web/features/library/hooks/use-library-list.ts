import { useCallback, useEffect, useRef, useState } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { type LibraryFilter, listGenerations } from '#web/features/studio/api/studio-api.ts'

type ListState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | {
      status: 'ready'
      items: GenerationView[]
      nextCursor: string | null
      isLoadingMore: boolean
      moreError: unknown
    }

export type LibraryList = ListState & {
  reload: () => void
  /** Fetches the next page; resolves with the items it added (none when it failed or was stale). */
  loadMore: () => Promise<GenerationView[]>
  /** Puts a newer copy of one item in place (finished, saved…); unknown ids are ignored. */
  replace: (generation: GenerationView) => void
  remove: (id: string) => void
}

/**
 * The user's generations, newest first, one page at a time (the server's cursor). A change of
 * filter starts again from the first page; answers to an older filter are dropped.
 */
export function useLibraryList(filter: LibraryFilter, pageSize = 20): LibraryList {
  const [state, setState] = useState<ListState>({ status: 'loading' })
  const [reloads, setReloads] = useState(0)
  // Bumped on every new first-page request, so late answers for an old filter are ignored.
  const requestRef = useRef(0)
  const { mode, saved } = filter

  useEffect(() => {
    // `reloads` is read so that reload() runs this again.
    void reloads
    const request = ++requestRef.current
    setState({ status: 'loading' })
    listGenerations({ mode, saved }, null, pageSize).then(
      (page) => {
        if (request !== requestRef.current) return
        setState({
          status: 'ready',
          items: page.items,
          nextCursor: page.nextCursor,
          isLoadingMore: false,
          moreError: null,
        })
      },
      (error: unknown) => {
        if (request === requestRef.current) setState({ status: 'error', error })
      },
    )
  }, [mode, saved, pageSize, reloads])

  useEffect(
    () => () => {
      requestRef.current += 1
    },
    [],
  )

  const reload = useCallback(() => setReloads((count) => count + 1), [])

  const cursor = state.status === 'ready' && !state.isLoadingMore ? state.nextCursor : null
  const loadMore = useCallback(async (): Promise<GenerationView[]> => {
    if (!cursor) return []
    const request = requestRef.current
    setState((current) =>
      current.status === 'ready' ? { ...current, isLoadingMore: true, moreError: null } : current,
    )
    try {
      const page = await listGenerations({ mode, saved }, cursor, pageSize)
      if (request !== requestRef.current) return []
      setState((current) => {
        if (current.status !== 'ready') return current
        // The cursor is keyset (date, id), so pages do not overlap; the check is only a guard.
        const known = new Set(current.items.map((item) => item.id))
        const added = page.items.filter((item) => !known.has(item.id))
        return {
          ...current,
          items: [...current.items, ...added],
          nextCursor: page.nextCursor,
          isLoadingMore: false,
        }
      })
      return page.items
    } catch (error) {
      if (request === requestRef.current) {
        setState((current) =>
          current.status === 'ready' ? { ...current, isLoadingMore: false, moreError: error } : current,
        )
      }
      return []
    }
  }, [cursor, mode, saved, pageSize])

  const replace = useCallback((generation: GenerationView) => {
    setState((current) =>
      current.status === 'ready' && current.items.some((item) => item.id === generation.id)
        ? { ...current, items: current.items.map((item) => (item.id === generation.id ? generation : item)) }
        : current,
    )
  }, [])

  const remove = useCallback(
    (id: string) => {
      if (state.status !== 'ready') return
      const items = state.items.filter((item) => item.id !== id)
      // The last shown one went but older ones exist: show them rather than an empty library.
      if (items.length === 0 && state.nextCursor) {
        reload()
        return
      }
      setState({ ...state, items })
    },
    [state, reload],
  )

  return { ...state, reload, loadMore, replace, remove }
}
