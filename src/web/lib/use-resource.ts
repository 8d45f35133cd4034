import { useCallback, useEffect, useRef, useState } from 'react'

export type ResourceState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; data: T }

export type Resource<T> = ResourceState<T> & {
  /** Asks again. Data already shown stays (status `ready`) until the new answer replaces it. */
  reload: () => void
  /** Adopts data the caller already has (the answer of a change), dropping any answer on its way. */
  replace: (data: T) => void
  /** Changes the data shown (an item finished, a page was added); nothing happens unless ready. */
  update: (change: (current: T) => T) => void
}

/**
 * Loads data on mount and again whenever `key` changes; `load` gets a signal that aborts on
 * unmount, on a new key, on `reload` and on `replace`, and only the latest request may set the
 * state, so a slow answer for an old key never overwrites a newer one. A new key starts from
 * `loading` (the old data belongs to another question); `reload` keeps the data shown meanwhile.
 * While `isEnabled` is false nothing is loaded and the state stays as it is.
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  options: { key?: string; isEnabled?: boolean } = {},
): Resource<T> {
  const key = options.key ?? ''
  const isEnabled = options.isEnabled ?? true
  const [state, setState] = useState<ResourceState<T>>({ status: 'loading' })
  const [reloads, setReloads] = useState(0)
  // The latest `load` is called when a request starts; what it reads must be part of `key`.
  const loadRef = useRef(load)
  loadRef.current = load
  const requestRef = useRef<AbortController | null>(null)
  const loadedKeyRef = useRef<string | null>(null)

  useEffect(() => {
    if (!isEnabled) return
    // `reloads` is read so that reload() runs this again.
    void reloads
    const controller = new AbortController()
    requestRef.current = controller
    const isSameKey = loadedKeyRef.current === key
    loadedKeyRef.current = key
    setState((current) =>
      current.status === 'loading' || (isSameKey && current.status === 'ready')
        ? current
        : { status: 'loading' },
    )
    loadRef.current(controller.signal).then(
      (data) => {
        if (requestRef.current === controller && !controller.signal.aborted)
          setState({ status: 'ready', data })
      },
      (error: unknown) => {
        if (requestRef.current === controller && !controller.signal.aborted)
          setState({ status: 'error', error })
      },
    )
    return () => controller.abort()
  }, [key, isEnabled, reloads])

  const reload = useCallback(() => setReloads((count) => count + 1), [])

  const replace = useCallback((data: T) => {
    requestRef.current?.abort()
    requestRef.current = null
    setState({ status: 'ready', data })
  }, [])

  const update = useCallback((change: (current: T) => T) => {
    setState((current) => {
      if (current.status !== 'ready') return current
      const data = change(current.data)
      return data === current.data ? current : { status: 'ready', data }
    })
  }, [])

  return { ...state, reload, replace, update }
}
