import { type FormEvent, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { accessCodeLength, safeNextPath } from '#shared/contracts/access.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { betaTrial, getPlan } from '#shared/plans.ts'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { TextLink } from '#web/components/ui/prose.tsx'
import { useSession } from '#web/features/session/session-context.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { redeemAccessCode } from '../api/redeem-access-code.ts'
import { describedBy, errorMessageKey } from '../validation.ts'
import { AuthCard } from './auth-card.tsx'
import { FormAlert } from './form-alert.tsx'
import { SubmitButton } from './submit-button.tsx'

type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'error'; messageKey: TKey; isCodeWrong: boolean }

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
  const titleId = useId()
  const alertId = useId()
  const hintId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const [code, setCode] = useState('')
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const isSending = status.kind === 'sending'
  const isComplete = code.length === accessCodeLength
  const isCodeWrong = status.kind === 'error' && status.isCodeWrong
  const signInPath = props.next ? `/auth/signin?next=${encodeURIComponent(props.next)}` : '/auth/signin'

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    if (isSending || !isComplete) return
    setStatus({ kind: 'sending' })
    try {
      const { user } = await redeemAccessCode({ code })
      session.setUser(user)
      navigate(safeNextPath(props.next), { replace: true })
    } catch (error) {
      setStatus({
        kind: 'error',
        messageKey: errorMessageKey(error),
        isCodeWrong: error instanceof ApiError && error.code === 'ACCESS_CODE_INVALID',
      })
      // Ready to type the code again.
      requestAnimationFrame(() => {
        inputRef.current?.focus()
        inputRef.current?.select()
      })
    }
  }

  return (
    <AuthCard
      icon="key"
      title={t('auth.access.title')}
      titleId={titleId}
      subtitle={t('auth.access.subtitle', { days: betaTrial.days, plan: getPlan(betaTrial.planId).name })}
      footer={
        <>
          <p>
            {t('auth.access.haveAccount')} <TextLink to={signInPath}>{t('auth.access.signIn')}</TextLink>
          </p>
          <p>
            {t('auth.access.noCode')} <TextLink to="/pricing">{t('auth.access.seePlans')}</TextLink>
          </p>
        </>
      }
    >
      <form noValidate onSubmit={handleSubmit} aria-labelledby={titleId}>
        {status.kind === 'error' ? <FormAlert id={alertId} message={t(status.messageKey)} /> : null}
        <div className="space-y-5">
          <FormField label={t('auth.access.codeLabel')}>
            {(control) => (
              <>
                <input
                  {...control}
                  ref={inputRef}
                  aria-describedby={describedBy(hintId, isCodeWrong && alertId)}
                  aria-invalid={isCodeWrong || undefined}
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
                  value={code}
                  onChange={(e) => {
                    setCode(normalizeCodeInput(e.target.value))
                    if (isCodeWrong) setStatus({ kind: 'idle' })
                  }}
                />
                <p id={hintId} className="mt-1.5 text-sm text-slate-600">
                  {t('auth.access.codeHint')}
                </p>
              </>
            )}
          </FormField>
          <SubmitButton isBusy={isSending} busyLabel={t('auth.access.submitting')} disabled={!isComplete}>
            {t('auth.access.submit')}
          </SubmitButton>
        </div>
      </form>
    </AuthCard>
  )
}
