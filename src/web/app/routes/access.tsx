import { Navigate, useSearchParams } from 'react-router'
import { safeNextPath } from '#shared/contracts/access.ts'
import { AccessCodeForm } from '#web/features/auth/components/access-code-form.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useHydrated } from '#web/lib/use-hydrated.ts'

/**
 * /access?next=…: the beta code gate. Someone already signed in goes straight on to `next`. The
 * form shows while the session is still being asked for, as in the prerendered page, so nothing
 * moves when the answer is "signed out".
 */
export function AccessPage() {
  const session = useSession()
  const [params] = useSearchParams()
  const next = useHydrated() ? params.get('next') : null
  if (session.status === 'signed-in') return <Navigate to={safeNextPath(next)} replace />
  return <AccessCodeForm next={next} />
}
