import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { PageSpinner } from '#web/components/layout/root-layout.tsx'
import { href } from '#web/lib/href.ts'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'
import { useSession } from '#web/lib/session.tsx'

/** Where a signed-out visitor of `pathname` is sent: /access, remembering the page (but not for /app itself). */
export function accessPathFor(pathname: string, search: string): string {
  if (pathname === href('dashboard') || pathname === `${href('dashboard')}/`) return href('access')
  return `${href('access')}?next=${encodeURIComponent(pathname + search)}`
}

/** Shows its children only to a signed-in user; a spinner while the session loads. */
export function RequireSession(props: { children: ReactNode }) {
  const session = useSession()
  const location = useLocation()
  const localized = useLocalizedHref()
  if (session.status === 'loading') return <PageSpinner />
  if (session.status === 'signed-out')
    return <Navigate to={localized(accessPathFor(location.pathname, location.search))} replace />
  return props.children
}
