import { useSearchParams } from 'react-router'
import { SignInForm } from '#web/features/auth/components/sign-in-form.tsx'
import { useHydrated } from '#web/lib/use-hydrated.ts'

/** /auth/signin?next=…: email and password, then on to `next` (a path on this site) or /app. */
export function SignInPage() {
  const [params] = useSearchParams()
  return <SignInForm next={useHydrated() ? params.get('next') : null} />
}
