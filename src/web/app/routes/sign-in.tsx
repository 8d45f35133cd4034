import { useSearchParams } from 'react-router'
import { SignInForm } from '#web/features/auth/components/sign-in-form.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** /auth/signin?next=…: email and password, then on to `next` (a path on this site) or /app. */
export function SignInPage() {
  const { t } = useI18n()
  useDocumentTitle(t('auth.signIn.documentTitle'))
  const [params] = useSearchParams()
  return <SignInForm next={params.get('next')} />
}
