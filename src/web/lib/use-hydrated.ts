import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False while React hydrates a prerendered page (and on the server), true after. What the build
 * could not know (a link's query string: `?next=`, `?token=`, `?plan=`) is read only once this is
 * true, so hydration finds exactly what was prerendered and the page updates right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
