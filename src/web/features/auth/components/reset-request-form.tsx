import { useState } from 'react'
import { Button } from '#web/components/ui/button.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { requestPasswordReset } from '../api/request-password-reset.ts'
import { type AuthFieldError, checkEmail, describeFieldError } from '../validation.ts'
import { AuthCard } from './auth-card.tsx'
import { AuthFormCard } from './auth-form.tsx'
import { EmailField } from './email-field.tsx'

/**
 * Asks for a reset link. The confirmation reads the same whether or not the account exists, so
 * the form does not tell anyone who has an account.
 */
export function ResetRequestForm() {
  const { t } = useI18n()
  // Coming back from the confirmation to try another address: start again at the heading.
  const [hasSentBefore, setSentBefore] = useState(false)
  const form = useForm<{ email: string }, AuthFieldError>({
    initialValues: { email: '' },
    validate: (values) => ({ email: checkEmail(values.email) }),
    describe: (reason) => describeFieldError(t, reason),
    action: (values) => requestPasswordReset(values),
  })

  const footer = (
    <p>
      {t('auth.resetRequest.remembered')}{' '}
      <TextLink to={href('signIn')}>{t('auth.resetRequest.backToSignIn')}</TextLink>
    </p>
  )

  if (form.status === 'sent') {
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
            form.reset()
            setSentBefore(true)
          }}
        >
          {t('auth.resetRequest.tryAgain')}
        </Button>
      </AuthCard>
    )
  }

  return (
    <AuthFormCard icon="lock" form={form} keys="auth.resetRequest" focusTitle={hasSentBefore} footer={footer}>
      <EmailField form={form} />
    </AuthFormCard>
  )
}
