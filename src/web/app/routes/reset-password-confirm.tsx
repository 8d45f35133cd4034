import { useSearchParams } from 'react-router'
import { ResetConfirmForm } from '#web/features/auth/components/reset-confirm-form.tsx'
import { useHydrated } from '#web/lib/use-hydrated.ts'

/**
 * /auth/reset-password/confirm?token=…: the page the reset email links to. Prerendered, it shows
 * the form; once hydrated it is remounted with the link's token (or says the link does not work).
 */
export function ResetPasswordConfirmPage() {
  const [params] = useSearchParams()
  const isHydrated = useHydrated()
  if (!isHydrated) return <ResetConfirmForm key="prerendered" token="" isPrerendered />
  return <ResetConfirmForm key="link" token={params.get('token')} />
}
