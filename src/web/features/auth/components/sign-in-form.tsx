import { useNavigate } from 'react-router'
import { safeNextPath } from '#shared/contracts/access.ts'
import { FormField } from '#web/components/ui/form-field.tsx'
import { PasswordInput } from '#web/components/ui/password-input.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { signIn } from '../api/sign-in.ts'
import {
  type AuthFieldError,
  authServerReason,
  checkEmail,
  checkSignInPassword,
  describeFieldError,
} from '../validation.ts'
import { AuthFormCard } from './auth-form.tsx'
import { EmailField } from './email-field.tsx'

/** Email and password; on success the user lands on `next` (a same-site path) or the dashboard. */
export function SignInForm(props: { next: string | null }) {
  const { t } = useI18n()
  const session = useSession()
  const navigate = useNavigate()
  const nextQuery = props.next ? `?next=${encodeURIComponent(props.next)}` : ''
  const form = useForm<{ email: string; password: string }, AuthFieldError>({
    initialValues: { email: '', password: '' },
    validate: (values) => ({
      email: checkEmail(values.email),
      password: checkSignInPassword(values.password),
    }),
    describe: (reason) => describeFieldError(t, reason),
    serverReason: authServerReason,
    action: async (values) => {
      const { user } = await signIn(values)
      session.setUser(user)
      navigate(safeNextPath(props.next), { replace: true })
    },
  })

  return (
    <AuthFormCard
      icon="lock"
      form={form}
      keys="auth.signIn"
      footer={
        <>
          <p>
            {t('auth.signIn.noAccount')}{' '}
            <TextLink to={href('signUp')}>{t('auth.signIn.createAccount')}</TextLink>
          </p>
          <p>
            {t('auth.signIn.haveCode')}{' '}
            <TextLink to={`${href('access')}${nextQuery}`}>{t('auth.signIn.enterCode')}</TextLink>
          </p>
        </>
      }
    >
      <EmailField form={form} />
      <FormField label={t('auth.fields.password')} error={form.errorText('password')}>
        {(control) => (
          <PasswordInput {...control} {...form.input('password')} autoComplete="current-password" required />
        )}
      </FormField>
      <p className="text-right text-sm">
        <TextLink to={href('resetPassword')}>{t('auth.signIn.forgotPassword')}</TextLink>
      </p>
    </AuthFormCard>
  )
}
