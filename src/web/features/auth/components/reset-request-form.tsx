import { type FormEvent, useId, useRef, useState } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { TextLink } from '#web/components/ui/prose.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { requestPasswordReset } from '../api/request-password-reset.ts'
import {
  type AuthFieldErrors,
  checkEmail,
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
import { SubmitButton } from './submit-button.tsx'

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'error'; messageKey: TKey } | { kind: 'sent' }

/**
 * Asks for a reset link. The confirmation reads the same whether or not the account exists, so
 * the form does not tell anyone who has an account.
 */
export function ResetRequestForm() {
  const { t } = useI18n()
  const titleId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const [email, setEmail] = useState('')
  const [fieldErrors, setFieldErrors] = useState<AuthFieldErrors>({})
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const isSending = status.kind === 'sending'
  // Coming back from the confirmation to try another address: start again at the heading.
  const [hasSentBefore, setSentBefore] = useState(false)

  const footer = (
    <p>
      {t('auth.resetRequest.remembered')}{' '}
      <TextLink to="/auth/signin">{t('auth.resetRequest.backToSignIn')}</TextLink>
    </p>
  )

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    if (isSending) return
    const errors = compactErrors({ email: checkEmail(email) })
    setFieldErrors(errors)
    if (hasErrors(errors)) {
      setStatus({ kind: 'idle' })
      focusFirstInvalid(formRef.current)
      return
    }
    setStatus({ kind: 'sending' })
    try {
      await requestPasswordReset({ email })
      setStatus({ kind: 'sent' })
    } catch (error) {
      const fromServer = serverFieldErrors(error, ['email'])
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

  if (status.kind === 'sent') {
    return (
      <AuthCard
        key="sent"
        icon="mail"
        tone="success"
        title={t('auth.resetRequest.sentTitle')}
        focusTitle
        footer={footer}
      >
        <p className="text-slate-700">{t('auth.resetRequest.sentBody')}</p>
        <Button
          variant="secondary"
          size="lg"
          className="mt-6 w-full"
          onClick={() => {
            setEmail('')
            setSentBefore(true)
            setStatus({ kind: 'idle' })
          }}
        >
          {t('auth.resetRequest.tryAgain')}
        </Button>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      key="form"
      icon="lock"
      title={t('auth.resetRequest.title')}
      titleId={titleId}
      subtitle={t('auth.resetRequest.subtitle')}
      focusTitle={hasSentBefore}
      footer={footer}
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
                  setFieldErrors({})
                }}
              />
            )}
          </FormField>
          <SubmitButton isBusy={isSending} busyLabel={t('auth.resetRequest.submitting')}>
            {t('auth.resetRequest.submit')}
          </SubmitButton>
        </div>
      </form>
    </AuthCard>
  )
}
