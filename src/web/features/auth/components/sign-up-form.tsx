import { useEffect } from 'react'
import { useNavigate } from 'react-router'
import { getPlan, type PlanId } from '#shared/plans.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { signUp } from '../api/sign-up.ts'
import { AuthCard } from './auth-card.tsx'
import { AuthFormCard } from './auth-form.tsx'
import { EmailField } from './email-field.tsx'
import { NewPasswordFields } from './new-password-fields.tsx'
import { useNewAccountForm } from './use-new-account-form.ts'

/** How long "Account Created" shows before going on to the plans (tests/e2e/accounts.spec.ts checks it). */
export const signUpRedirectDelayMs = 2000

/** Where a new account goes next: the plans, keeping the plan chosen before signing up. */
export function pricingPathFor(plan: PlanId | null): string {
  return plan ? `${href('pricing')}?plan=${plan}` : href('pricing')
}

/**
 * Email, password and confirmation; then "Account Created" and on to the plans, signed in. The
 * server answers an email that already has an account the same way but without a session (and
 * emails its owner), so the session is asked again rather than taken from the answer, and the
 * screen says what happens in that case without saying whether it did.
 */
export function SignUpForm(props: { plan: PlanId | null }) {
  const { t } = useI18n()
  const navigate = useNavigate()
  const session = useSession()
  const form = useNewAccountForm(signUp, () => void session.refresh())
  const isCreated = form.status === 'sent'
  const nextPath = pricingPathFor(props.plan)

  useEffect(() => {
    if (!isCreated) return
    const timer = window.setTimeout(() => navigate(nextPath, { replace: true }), signUpRedirectDelayMs)
    return () => window.clearTimeout(timer)
  }, [isCreated, navigate, nextPath])

  if (isCreated) {
    return (
      <AuthCard key="created" icon="check" tone="success" title={t('auth.signUp.createdTitle')} focusTitle>
        <p className="text-slate-700">{t('auth.signUp.createdBody')}</p>
        <p className="mt-3 text-sm text-slate-600">{t('auth.signUp.createdIfRegistered')}</p>
        <ButtonLink to={nextPath} replace variant="secondary" size="lg" className="mt-6 w-full">
          {t('auth.signUp.continue')}
        </ButtonLink>
      </AuthCard>
    )
  }

  return (
    <AuthFormCard
      icon="user"
      form={form}
      keys="auth.signUp"
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
          {t('auth.signUp.haveAccount')} <TextLink to={href('signIn')}>{t('auth.signUp.signIn')}</TextLink>
        </p>
      }
    >
      <EmailField form={form} />
      <NewPasswordFields form={form} />
    </AuthFormCard>
  )
}
