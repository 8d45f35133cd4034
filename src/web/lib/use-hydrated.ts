import {
  createContext,
  createElement,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from 'react'

/** True unless the tree is a prerendered page still being hydrated (or rendered by the build). */
const HydratedContext = createContext(true)

/**
 * Around the app: `isHydrating` when React takes over a prerendered page (web/main.tsx) or the
 * build renders one (app/prerender.tsx). It turns true once hydrated, in a transition: the parts
 * that waited for it (query values, inert forms) re-render in slices, never as one long task.
 */
export function HydrationProvider(props: { isHydrating: boolean; children: ReactNode }) {
  const [isHydrated, setHydrated] = useState(!props.isHydrating)
  useEffect(() => {
    if (!isHydrated) startTransition(() => setHydrated(true))
  }, [isHydrated])
  return createElement(HydratedContext.Provider, { value: isHydrated }, props.children)
}

/**
 * False while React hydrates a prerendered page (and when the build renders it), true after and
 * in every page rendered in the browser alone. What the build could not know (a link's query
 * string: `?next=`, `?token=`, `?plan=`) is read only once this is true, so hydration finds
 * exactly what was prerendered and the page updates right after.
 */
export function useHydrated(): boolean {
  return useContext(HydratedContext)
}
