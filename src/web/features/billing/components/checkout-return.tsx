import { useEffect, useRef, useState } from 'react'
import type { CheckoutStatusResponse } from '#shared/contracts/billing.ts'
import { getPlan } from '#shared/plans.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { CheckIcon } from '#web/components/ui/icons.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { formatDate } from '#web/lib/format-time.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { getCheckoutStatus } from '../api/billing-api.ts'

/** Waits between checks: quick at first (the webhook usually lands within seconds), then every 5 s. */
export const checkoutPollDelaysMs = [1000, 1500, 2000, 3000, 4000, 5000]
/** After this long without a confirmation the page stops asking and sends the user to /billing. */
export const checkoutGiveUpAfterMs = 60_000

type Phase =
  | { kind: 'pending' }
  | { kind: 'applied'; status: CheckoutStatusResponse }
  | { kind: 'expired' }
  | { kind: 'timeout' }
  | { kind: 'error' }

/**
 * The page the hosted checkout returns to: asks the server about the session (which applies it
 * once paid) until it is applied or expired, a few seconds apart, and gives up after a minute
 * with a link to /billing. Then shows the plan, or the credits a pack added.
 */
export function CheckoutReturn(props: {
  sessionId: string | null
  delaysMs?: readonly number[]
  giveUpAfterMs?: number
}) {
  const { t, locale } = useI18n()
  const [phase, setPhase] = useState<Phase>(props.sessionId ? { kind: 'pending' } : { kind: 'error' })
  const headingRef = useRef<HTMLHeadingElement>(null)
  const delays = props.delaysMs ?? checkoutPollDelaysMs
  const giveUpAfter = props.giveUpAfterMs ?? checkoutGiveUpAfterMs

  // biome-ignore lint/correctness/useExhaustiveDependencies: one polling run per session; the timings are fixed for it.
  useEffect(() => {
    const sessionId = props.sessionId
    if (!sessionId) return
    const controller = new AbortController()
    const startedAt = Date.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    let attempt = 0

    async function check() {
      let next: Phase | null = null
      try {
        const status = await getCheckoutStatus(sessionId as string, controller.signal)
        if (status.state === 'applied') next = { kind: 'applied', status }
        if (status.state === 'expired') next = { kind: 'expired' }
      } catch (error) {
        if (controller.signal.aborted) return
        // Not this user's session, or no such session: asking again will not help. Anything
        // else (network, provider outage) may pass, so it is asked again.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) next = { kind: 'error' }
      }
      if (controller.signal.aborted) return
      if (!next) {
        const delay = delays[Math.min(attempt, delays.length - 1)] ?? 5000
        attempt += 1
        if (Date.now() - startedAt + delay > giveUpAfter) next = { kind: 'timeout' }
        else {
          timer = setTimeout(check, delay)
          return
        }
      }
      setPhase(next)
    }

    void check()
    return () => {
      controller.abort()
      clearTimeout(timer)
    }
  }, [props.sessionId])

  useEffect(() => {
    if (phase.kind !== 'pending') headingRef.current?.focus()
  }, [phase.kind])

  const headingClass = 'text-2xl font-bold tracking-tight text-slate-900 outline-none'
  const toBilling = (
    <ButtonLink to={href('billing')} variant="secondary">
      {t('billing.return.toBilling')}
    </ButtonLink>
  )

  if (phase.kind === 'pending') {
    return (
      <div
        data-testid="checkout-return"
        data-state="pending"
        className="flex flex-col items-center gap-4 text-center"
      >
        <span className="text-brand-700">
          <Spinner className="size-8!" />
        </span>
        <h2 className={headingClass} role="status">
          {t('billing.return.pending')}
        </h2>
        <p className="text-slate-600">{t('billing.return.pendingBody')}</p>
      </div>
    )
  }

  if (phase.kind === 'applied') {
    const { status } = phase
    const subscription = status.subscription
    const plan = subscription ? getPlan(subscription.planId) : null
    const isPlan = status.kind === 'plan' && plan && subscription
    return (
      <div
        data-testid="checkout-return"
        data-state="applied"
        className="flex flex-col items-center gap-4 text-center"
      >
        <span
          aria-hidden="true"
          className="flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700"
        >
          <CheckIcon className="size-6" />
        </span>
        <h2 ref={headingRef} tabIndex={-1} className={headingClass}>
          {isPlan ? t('billing.return.planApplied', { plan: plan.name }) : t('billing.return.packApplied')}
        </h2>
        <p className="max-w-prose text-slate-700" data-testid="checkout-return-detail">
          {isPlan
            ? t('billing.return.planAppliedBody', {
                images: plan.imageQuota,
                videos: plan.videoQuota,
                date: formatDate(locale, subscription.currentPeriodEnd),
              })
            : t('billing.return.packAppliedBody', status.credits)}
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <ButtonLink to={href('dashboard')} variant="primary">
            {t('billing.return.toDashboard')}
          </ButtonLink>
          {toBilling}
        </div>
      </div>
    )
  }

  const text =
    phase.kind === 'expired'
      ? { title: t('billing.return.expired'), body: t('billing.return.expiredBody') }
      : phase.kind === 'timeout'
        ? { title: t('billing.return.timeout'), body: t('billing.return.timeoutBody') }
        : { title: t(props.sessionId ? 'billing.return.error' : 'billing.return.missing'), body: null }
  return (
    <div
      data-testid="checkout-return"
      data-state={phase.kind}
      className="flex flex-col items-center gap-4 text-center"
    >
      <h2 ref={headingRef} tabIndex={-1} className={headingClass}>
        {text.title}
      </h2>
      {text.body ? <p className="max-w-prose text-slate-700">{text.body}</p> : null}
      {toBilling}
    </div>
  )
}
