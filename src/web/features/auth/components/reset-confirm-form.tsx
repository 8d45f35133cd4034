import { useState } from 'react'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { confirmPasswordReset } from '../api/confirm-password-reset.ts'
import { type AuthFieldError, authServerReason, checkNewPassword, describeFieldError } from '../validation.ts'
import { AuthCard } from './auth-card.tsx'
import { AuthFormCard } from './auth-form.tsx'
import { NewPasswordFields } from './new-password-fields.tsx'

function isInvalidTokenError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.code === 'AUTH_RESET_TOKEN_INVALID') return true
  // A token the server will not even read (e.g. far too long) is just as unusable.
  return error.code === 'VALIDATION_FAILED' && error.details?.fields?.token !== undefined
}

/**
 * Sets a new password from the emailed link; a missing, used or expired token says so.
 * `isPrerendered`: the form as the build renders it, before the link's token is known.
 */
export function ResetConfirmForm(props: { token: string | null; isPrerendered?: boolean }) {
  const { t } = useI18n()
  const session = useSession()
  const [invalid, setInvalid] = useState<{ isAfterSubmit: boolean } | null>(
    props.token || props.isPrerendered ? null : { isAfterSubmit: false },
  )
  const form = useForm<{ password: string; confirmPassword: string }, AuthFieldError>({
    initialValues: { password: '', confirmPassword: '' },
    validate: (values) => checkNewPassword(values.password, values.confirmPassword),
    describe: (reason) => describeFieldError(t, reason),
    serverFields: { password: 'password' },
    serverReason: authServerReason,
    canSubmit: () => props.token !== null && !props.isPrerendered,
    action: async (values) => {
      try {
        await confirmPasswordReset({ token: props.token ?? '', password: values.password })
      } catch (error) {
        if (!isInvalidTokenError(error)) throw error
        setInvalid({ isAfterSubmit: true })
        return
      }
      // Every session of the account was ended, perhaps this browser's too.
      void session.refresh()
    },
  })

  if (invalid) {
    return (
      <AuthCard
        key="invalid"
        icon="alert"
        tone="danger"
        title={t('auth.resetConfirm.invalidTitle')}
        focusTitle={invalid.isAfterSubmit}
      >
        <p role="alert" className="text-slate-700">
          {t('errors.AUTH_RESET_TOKEN_INVALID')}
        </p>
        <ButtonLink to={href('resetPassword')} size="lg" className="mt-6 w-full">
          {t('auth.resetConfirm.requestNew')}
        </ButtonLink>
      </AuthCard>
    )
  }

  if (form.status === 'sent') {
    return (
      <AuthCard key="done" icon="check" tone="success" title={t('auth.resetConfirm.doneTitle')} focusTitle>
        <p className="text-slate-700">{t('auth.resetConfirm.doneBody')}</p>
        <ButtonLink to={href('signIn')} size="lg" className="mt-6 w-full">
          {t('auth.resetConfirm.signIn')}
        </ButtonLink>
      </AuthCard>
    )
  }

  return (
    <AuthFormCard
      icon="lock"
      form={form}
      keys="auth.resetConfirm"
      footer={
        <p>
          <TextLink to={href('resetPassword')}>{t('auth.resetConfirm.requestNew')}</TextLink>
        </p>
      }
    >
      <NewPasswordFields isReplacing form={form} />
    </AuthFormCard>
  )
}
