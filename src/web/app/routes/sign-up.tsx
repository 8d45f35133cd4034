import { useSearchParams } from 'react-router'
import { isPlanId } from '#shared/plans.ts'
import { SignUpForm } from '#web/features/auth/components/sign-up-form.tsx'
import { useHydrated } from '#web/lib/use-hydrated.ts'

/** /auth/signup?plan=…: a new account; a plan chosen on the pricing page is carried on to /pricing. */
export function SignUpPage() {
  const [params] = useSearchParams()
  const plan = useHydrated() ? params.get('plan') : null
  return <SignUpForm plan={isPlanId(plan) ? plan : null} />
}
