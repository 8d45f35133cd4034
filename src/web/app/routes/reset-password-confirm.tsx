import { useSearchParams } from 'react-router'
import { ResetConfirmForm } from '#web/features/auth/components/reset-confirm-form.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** /auth/reset-password/confirm?token=…: the page the reset email links to. */
export function ResetPasswordConfirmPage() {
  const { t } = useI18n()
  useDocumentTitle(t('auth.resetConfirm.documentTitle'))
  const [params] = useSearchParams()
  return <ResetConfirmForm token={params.get('token')} />
}
