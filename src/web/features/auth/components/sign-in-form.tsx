import { type FormEvent, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { safeNextPath } from '#shared/contracts/access.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { TextLink } from '#web/components/ui/prose.tsx'
import { useSession } from '#web/features/session/session-context.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { signIn } from '../api/sign-in.ts'
import {
  type AuthFieldErrors,
  checkEmail,
  checkSignInPassword,
  compactErrors,
  describeFieldError,
  errorMessageKey,
  focusFirstInvalid,
  hasErrors,
  keepFocusInForm,
  serverFieldErrors,
} from '../validation.ts'
import { AuthCard } from './auth-card.tsx'
import { FormAlert } from './form-alert.tsx'
import { PasswordInput } from './password-input.tsx'
import { SubmitButton } from './submit-button.tsx'

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'error'; messageKey: TKey }

/** Email and password; on success the user lands on `next` (a same-site path) or the dashboard. */
export function SignInForm(props: { next: string | null }) {
  const { t } = useI18n()
  const session = useSession()
  const navigate = useNavigate()
  const titleId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [fieldErrors, setFieldErrors] = useState<AuthFieldErrors>({})
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const isSending = status.kind === 'sending'
  const nextQuery = props.next ? `?next=${encodeURIComponent(props.next)}` : ''

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    if (isSending) return
    const errors = compactErrors({ email: checkEmail(email), password: checkSignInPassword(password) })
    setFieldErrors(errors)
    if (hasErrors(errors)) {
      setStatus({ kind: 'idle' })
      focusFirstInvalid(formRef.current)
      return
    }
    setStatus({ kind: 'sending' })
    try {
      const { user } = await signIn({ email, password })
      session.setUser(user)
      navigate(safeNextPath(props.next), { replace: true })
    } catch (error) {
      const fromServer = serverFieldErrors(error, ['email', 'password'])
      if (fromServer) {
        setFieldErrors(fromServer)
        setStatus({ kind: 'idle' })
        focusFirstInvalid(formRef.current)
        return
      }
      setStatus({ kind: 'error', messageKey: errorMessageKey(error) })
      keepFocusInForm(formRef.current)
    }
  }

  return (
    <AuthCard
      icon="lock"
      title={t('auth.signIn.title')}
      titleId={titleId}
      subtitle={t('auth.signIn.subtitle')}
      footer={
        <>
          <p>
            {t('auth.signIn.noAccount')}{' '}
            <TextLink to="/auth/signup">{t('auth.signIn.createAccount')}</TextLink>
          </p>
          <p>
            {t('auth.signIn.haveCode')}{' '}
            <TextLink to={`/access${nextQuery}`}>{t('auth.signIn.enterCode')}</TextLink>
          </p>
        </>
      }
    >
      <form ref={formRef} noValidate onSubmit={handleSubmit} aria-labelledby={titleId}>
        {status.kind === 'error' ? <FormAlert message={t(status.messageKey)} /> : null}
        <div className="space-y-5">
          <FormField label={t('auth.fields.email')} error={describeFieldError(t, fieldErrors.email)}>
            {(control) => (
              <input
                {...control}
                name="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                autoCapitalize="none"
                spellCheck={false}
                required
                className={inputClasses}
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value)
                  setFieldErrors(({ email: _cleared, ...rest }) => rest)
                }}
              />
            )}
          </FormField>
          <FormField label={t('auth.fields.password')} error={describeFieldError(t, fieldErrors.password)}>
            {(control) => (
              <PasswordInput
                {...control}
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => {
                  setPassword(e.target.value)
                  setFieldErrors(({ password: _cleared, ...rest }) => rest)
                }}
              />
            )}
          </FormField>
          <p className="text-right text-sm">
            <TextLink to="/auth/reset-password">{t('auth.signIn.forgotPassword')}</TextLink>
          </p>
          <SubmitButton isBusy={isSending} busyLabel={t('auth.signIn.submitting')}>
            {t('auth.signIn.submit')}
          </SubmitButton>
        </div>
      </form>
    </AuthCard>
  )
}
