import { ResetRequestForm } from '#web/features/auth/components/reset-request-form.tsx'

/** /auth/reset-password: asks for the email to send a reset link to. */
export function ResetPasswordPage() {
  return <ResetRequestForm />
}
