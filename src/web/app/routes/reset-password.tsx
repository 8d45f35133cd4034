import { ResetRequestForm } from '#web/features/auth/components/reset-request-form.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** /auth/reset-password: asks for the email to send a reset link to. */
export function ResetPasswordPage() {
  const { t } = useI18n()
  useDocumentTitle(t('auth.resetRequest.documentTitle'))
  return <ResetRequestForm />
}
