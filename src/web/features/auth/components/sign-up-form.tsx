import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import type { TKey } from '#shared/i18n/messages.ts'
import { getPlan, type PlanId } from '#shared/plans.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { TextLink } from '#web/components/ui/prose.tsx'
import { useSession } from '#web/features/session/session-context.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { signUp } from '../api/sign-up.ts'
import {
  type AuthFieldErrors,
  checkEmail,
  checkNewPassword,
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
import { NewPasswordFields } from './new-password-fields.tsx'
import { SubmitButton } from './submit-button.tsx'

/** The seed's pause on the "Account Created" screen before going on to the plans. */
export const signUpRedirectDelayMs = 2000

type Fields = { email: string; password: string; confirmPassword: string }
type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'error'; messageKey: TKey }
  | { kind: 'created' }

/** Where a new account goes next: the plans, keeping the plan chosen before signing up. */
export function pricingPathFor(plan: PlanId | null): string {
  return plan ? `/pricing?plan=${plan}` : '/pricing'
}

/** Email, password and confirmation; then "Account Created" (signed in) and on to the plans. */
export function SignUpForm(props: { plan: PlanId | null }) {
  const { t } = useI18n()
  const session = useSession()
  const navigate = useNavigate()
  const titleId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const [fields, setFields] = useState<Fields>({ email: '', password: '', confirmPassword: '' })
  const [fieldErrors, setFieldErrors] = useState<AuthFieldErrors>({})
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const isSending = status.kind === 'sending'
  const isCreated = status.kind === 'created'
  const nextPath = pricingPathFor(props.plan)

  useEffect(() => {
    if (!isCreated) return
    const timer = window.setTimeout(() => navigate(nextPath, { replace: true }), signUpRedirectDelayMs)
    return () => window.clearTimeout(timer)
  }, [isCreated, navigate, nextPath])

  const update = (name: keyof Fields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }))
    setFieldErrors(({ [name]: _cleared, ...rest }) => rest)
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    if (isSending) return
    const errors = compactErrors({
      email: checkEmail(fields.email),
      ...checkNewPassword(fields.password, fields.confirmPassword),
    })
    setFieldErrors(errors)
    if (hasErrors(errors)) {
      setStatus({ kind: 'idle' })
      focusFirstInvalid(formRef.current)
      return
    }
    setStatus({ kind: 'sending' })
    try {
      const { user } = await signUp({ email: fields.email, password: fields.password })
      session.setUser(user)
      setStatus({ kind: 'created' })
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

  if (isCreated) {
    return (
      <AuthCard key="created" icon="check" tone="success" title={t('auth.signUp.createdTitle')} focusTitle>
        <p className="text-slate-700">{t('auth.signUp.createdBody')}</p>
        <ButtonLink to={nextPath} replace variant="secondary" size="lg" className="mt-6 w-full">
          {t('auth.signUp.continue')}
        </ButtonLink>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      key="form"
      icon="user"
      title={t('auth.signUp.title')}
      titleId={titleId}
      subtitle={
        <>
          <p>{t('auth.signUp.subtitle')}</p>
          {props.plan ? (
            <p className="mt-4 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900">
              {t('auth.signUp.planChosen', { plan: getPlan(props.plan).name })}
            </p>
          ) : null}
        </>
      }
      footer={
        <p>
          {t('auth.signUp.haveAccount')} <TextLink to="/auth/signin">{t('auth.signUp.signIn')}</TextLink>
        </p>
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
                value={fields.email}
                onChange={(e) => update('email')(e.target.value)}
              />
            )}
          </FormField>
          <NewPasswordFields
            passwordLabel={t('auth.fields.password')}
            confirmLabel={t('auth.fields.confirmPassword')}
            password={fields.password}
            confirmPassword={fields.confirmPassword}
            errors={fieldErrors}
            onChange={(name, value) => update(name)(value)}
          />
          <SubmitButton isBusy={isSending} busyLabel={t('auth.signUp.submitting')}>
            {t('auth.signUp.submit')}
          </SubmitButton>
        </div>
      </form>
    </AuthCard>
  )
}
