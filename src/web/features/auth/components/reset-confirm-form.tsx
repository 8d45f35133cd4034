import { type FormEvent, useId, useRef, useState } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { TextLink } from '#web/components/ui/prose.tsx'
import { useSession } from '#web/features/session/session-context.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { confirmPasswordReset } from '../api/confirm-password-reset.ts'
import {
  type AuthFieldErrors,
  checkNewPassword,
  compactErrors,
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

type Fields = { password: string; confirmPassword: string }
type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'error'; messageKey: TKey }
  | { kind: 'done' }
  | { kind: 'invalid'; isAfterSubmit: boolean }

function isInvalidTokenError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.code === 'AUTH_RESET_TOKEN_INVALID') return true
  // A token the server will not even read (e.g. far too long) is just as unusable.
  return error.code === 'VALIDATION_FAILED' && error.details?.fields?.token !== undefined
}

/** Sets a new password from the emailed link; a missing, used or expired token says so. */
export function ResetConfirmForm(props: { token: string | null }) {
  const { t } = useI18n()
  const session = useSession()
  const titleId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const [fields, setFields] = useState<Fields>({ password: '', confirmPassword: '' })
  const [fieldErrors, setFieldErrors] = useState<AuthFieldErrors>({})
  const [status, setStatus] = useState<Status>(
    props.token ? { kind: 'idle' } : { kind: 'invalid', isAfterSubmit: false },
  )
  const isSending = status.kind === 'sending'

  const update = (name: keyof Fields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }))
    setFieldErrors(({ [name]: _cleared, ...rest }) => rest)
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    if (isSending || !props.token) return
    const errors = compactErrors(checkNewPassword(fields.password, fields.confirmPassword))
    setFieldErrors(errors)
    if (hasErrors(errors)) {
      setStatus({ kind: 'idle' })
      focusFirstInvalid(formRef.current)
      return
    }
    setStatus({ kind: 'sending' })
    try {
      await confirmPasswordReset({ token: props.token, password: fields.password })
      setStatus({ kind: 'done' })
      // Every session of the account was ended, perhaps this browser's too.
      void session.refresh()
    } catch (error) {
      if (isInvalidTokenError(error)) {
        setStatus({ kind: 'invalid', isAfterSubmit: true })
        return
      }
      const fromServer = serverFieldErrors(error, ['password'])
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

  if (status.kind === 'invalid') {
    return (
      <AuthCard
        key="invalid"
        icon="alert"
        tone="danger"
        title={t('auth.resetConfirm.invalidTitle')}
        focusTitle={status.isAfterSubmit}
      >
        <p role="alert" className="text-slate-700">
          {t('errors.AUTH_RESET_TOKEN_INVALID')}
        </p>
        <ButtonLink to="/auth/reset-password" size="lg" className="mt-6 w-full">
          {t('auth.resetConfirm.requestNew')}
        </ButtonLink>
      </AuthCard>
    )
  }

  if (status.kind === 'done') {
    return (
      <AuthCard key="done" icon="check" tone="success" title={t('auth.resetConfirm.doneTitle')} focusTitle>
        <p className="text-slate-700">{t('auth.resetConfirm.doneBody')}</p>
        <ButtonLink to="/auth/signin" size="lg" className="mt-6 w-full">
          {t('auth.resetConfirm.signIn')}
        </ButtonLink>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      key="form"
      icon="lock"
      title={t('auth.resetConfirm.title')}
      titleId={titleId}
      subtitle={t('auth.resetConfirm.subtitle')}
      footer={
        <p>
          <TextLink to="/auth/reset-password">{t('auth.resetConfirm.requestNew')}</TextLink>
        </p>
      }
    >
      <form ref={formRef} noValidate onSubmit={handleSubmit} aria-labelledby={titleId}>
        {status.kind === 'error' ? <FormAlert message={t(status.messageKey)} /> : null}
        <div className="space-y-5">
          <NewPasswordFields
            passwordLabel={t('auth.fields.newPassword')}
            confirmLabel={t('auth.fields.confirmNewPassword')}
            password={fields.password}
            confirmPassword={fields.confirmPassword}
            errors={fieldErrors}
            onChange={(name, value) => update(name)(value)}
          />
          <SubmitButton isBusy={isSending} busyLabel={t('auth.resetConfirm.submitting')}>
            {t('auth.resetConfirm.submit')}
          </SubmitButton>
        </div>
      </form>
    </AuthCard>
  )
}
