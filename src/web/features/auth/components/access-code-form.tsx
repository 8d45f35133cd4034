import { useId } from 'react'
import { useNavigate } from 'react-router'
import { accessCodeLength, safeNextPath } from '#shared/contracts/access.ts'
import { betaTrial, getPlan } from '#shared/plans.ts'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { redeemAccessCode } from '../api/redeem-access-code.ts'
import { AuthFormCard } from './auth-form.tsx'

/**
 * What the user typed, as the code it stands for: upper-case (Turkish dotted and dotless i count
 * as I, whatever the page's language), without spaces.
 */
export function normalizeCodeInput(raw: string): string {
  return raw.replace(/\s+/g, '').replace(/[iıİ]/g, 'I').toUpperCase().slice(0, accessCodeLength)
}

/** The beta gate: a 6-character code opens a beta account and leads on to `next`. */
export function AccessCodeForm(props: { next: string | null }) {
  const { t } = useI18n()
  const session = useSession()
  const navigate = useNavigate()
  const alertId = useId()
  const form = useForm({
    initialValues: { code: '' },
    // Every refusal is told in the alert, which a wrong code's field points to.
    serverFields: {},
    canSubmit: (values) => values.code.length === accessCodeLength,
    action: async (values) => {
      const { user } = await redeemAccessCode(values)
      session.setUser(user)
      navigate(safeNextPath(props.next), { replace: true })
    },
    // Ready to type the code again.
    focusAfterError: (element) => {
      const input = element.elements.namedItem('code')
      if (input instanceof HTMLInputElement) {
        input.focus()
        input.select()
      }
    },
  })
  const isComplete = form.values.code.length === accessCodeLength
  const isCodeWrong = form.formErrorCode === 'ACCESS_CODE_INVALID'
  const signInPath = props.next ? `${href('signIn')}?next=${encodeURIComponent(props.next)}` : href('signIn')

  return (
    <AuthFormCard
      icon="key"
      form={form}
      keys="auth.access"
      alertId={alertId}
      isSubmitDisabled={!isComplete}
      subtitle={t('auth.access.subtitle', { days: betaTrial.days, plan: getPlan(betaTrial.planId).name })}
      footer={
        <>
          <p>
            {t('auth.access.haveAccount')} <TextLink to={signInPath}>{t('auth.access.signIn')}</TextLink>
          </p>
          <p>
            {t('auth.access.noCode')} <TextLink to={href('pricing')}>{t('auth.access.seePlans')}</TextLink>
          </p>
        </>
      }
    >
      <FormField
        label={t('auth.access.codeLabel')}
        description={t('auth.access.codeHint')}
        isInvalid={isCodeWrong}
        describedBy={isCodeWrong && alertId}
      >
        {(control) => (
          <input
            {...control}
            name="code"
            type="text"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            maxLength={accessCodeLength}
            required
            className={`${inputClasses} py-3 text-center font-mono text-2xl font-semibold tracking-[0.5em] placeholder:tracking-[0.5em]`}
            placeholder={'•'.repeat(accessCodeLength)}
            value={form.values.code}
            onChange={(e) => {
              form.setValue('code', normalizeCodeInput(e.target.value))
              if (isCodeWrong) form.clearFormError()
            }}
          />
        )}
      </FormField>
    </AuthFormCard>
  )
}
