import { useCallback, useEffect, useRef, useState } from 'react'
import type { GenerationListResponse, GenerationView } from '#shared/contracts/generations.ts'
import { type ResourceState, useResource } from '#web/lib/use-resource.ts'
import { type LibraryFilter, listGenerations } from '../api/generations-api.ts'

export type LibraryList = ResourceState<GenerationListResponse> & {
  reload: () => void
  isLoadingMore: boolean
  /** Why the last "Load more" failed, or null. */
  moreError: unknown
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
  const { mode, saved } = filter
  const [more, setMore] = useState<{ isLoading: boolean; error: unknown }>({ isLoading: false, error: null })
  // Bumped on every new first-page request (and on unmount), so a "Load more" answer that
  // belongs to an older list is dropped.
  const listRef = useRef(0)
  const list = useResource(
    (signal) => {
      listRef.current += 1
      setMore({ isLoading: false, error: null })
      return listGenerations({ mode, saved }, null, pageSize, signal)
    },
    { key: `${mode ?? ''}|${saved ? 1 : 0}|${pageSize}` },
  )
  const { reload, update } = list

  useEffect(
    () => () => {
      listRef.current += 1
    },
    [],
  )

  const cursor = list.status === 'ready' && !more.isLoading ? list.data.nextCursor : null
  const loadMore = useCallback(async (): Promise<GenerationView[]> => {
    if (!cursor) return []
    const request = listRef.current
    setMore({ isLoading: true, error: null })
    try {
      const page = await listGenerations({ mode, saved }, cursor, pageSize)
      if (request !== listRef.current) return []
      update((current) => {
        // The cursor is keyset (date, id), so pages do not overlap; the check is only a guard.
        const known = new Set(current.items.map((item) => item.id))
        const added = page.items.filter((item) => !known.has(item.id))
        return { items: [...current.items, ...added], nextCursor: page.nextCursor }
      })
      setMore({ isLoading: false, error: null })
      return page.items
    } catch (error) {
      if (request === listRef.current) setMore({ isLoading: false, error })
      return []
    }
  }, [cursor, mode, saved, pageSize, update])

  const replace = useCallback(
    (generation: GenerationView) => {
      update((current) =>
        current.items.some((item) => item.id === generation.id)
          ? {
              ...current,
              items: current.items.map((item) => (item.id === generation.id ? generation : item)),
            }
          : current,
      )
    },
    [update],
  )

  const remove = useCallback(
    (id: string) => {
      if (list.status !== 'ready') return
      const items = list.data.items.filter((item) => item.id !== id)
      // The last shown one went but older ones exist: show them rather than an empty library.
      if (items.length === 0 && list.data.nextCursor) {
        reload()
        return
      }
      update((current) => ({ ...current, items: current.items.filter((item) => item.id !== id) }))
    },
    [list, reload, update],
  )

  const state: ResourceState<GenerationListResponse> =
    list.status === 'ready'
      ? { status: 'ready', data: list.data }
      : list.status === 'error'
        ? { status: 'error', error: list.error }
        : { status: 'loading' }
  return { ...state, reload, isLoadingMore: more.isLoading, moreError: more.error, loadMore, replace, remove }
}
