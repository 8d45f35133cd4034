import { useSearchParams } from 'react-router'
import { isPlanId } from '#shared/plans.ts'
import { SignUpForm } from '#web/features/auth/components/sign-up-form.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** /auth/signup?plan=…: a new account; a plan chosen on the pricing page is carried on to /pricing. */
export function SignUpPage() {
  const { t } = useI18n()
  useDocumentTitle(t('auth.signUp.documentTitle'))
  const [params] = useSearchParams()
  const plan = params.get('plan')
  return <SignUpForm plan={isPlanId(plan) ? plan : null} />
}
