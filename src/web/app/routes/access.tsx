import { Navigate, useSearchParams } from 'react-router'
import { safeNextPath } from '#shared/contracts/access.ts'
import { PageSpinner } from '#web/components/layout/root-layout.tsx'
import { AccessCodeForm } from '#web/features/auth/components/access-code-form.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** /access?next=…: the beta code gate. Someone already signed in goes straight on to `next`. */
export function AccessPage() {
  const { t } = useI18n()
  useDocumentTitle(t('auth.access.documentTitle'))
  const session = useSession()
  const [params] = useSearchParams()
  const next = params.get('next')
  if (session.status === 'loading') return <PageSpinner />
  if (session.status === 'signed-in') return <Navigate to={safeNextPath(next)} replace />
  return <AccessCodeForm next={next} />
}
