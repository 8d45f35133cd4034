import { useRef, useState } from 'react'
import { useLocation } from 'react-router'
import type { BillingResponse } from '#shared/contracts/billing.ts'
import { getPlan, type Plan } from '#shared/plans.ts'
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { LoadState, loadText } from '#web/components/ui/load-state.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import {
  cancelSubscription,
  choosePlan,
  getBilling,
  startPlanCheckout,
} from '#web/features/billing/api/billing-api.ts'
import { BuyCredits, buyCreditsId } from '#web/features/billing/components/buy-credits.tsx'
import { ChoosePlanDialog } from '#web/features/billing/components/choose-plan-dialog.tsx'
import { CurrentPlanSummary } from '#web/features/billing/components/current-plan-summary.tsx'
import { ManageBillingButton } from '#web/features/billing/components/manage-billing-button.tsx'
import { PastDueBanner } from '#web/features/billing/components/past-due-banner.tsx'
import { PlanOptions } from '#web/features/billing/components/plan-options.tsx'
import { PortalButton } from '#web/features/billing/components/portal-button.tsx'
import { SubscriptionControls } from '#web/features/billing/components/subscription-controls.tsx'
import { TestBillingNotice } from '#web/features/billing/components/test-billing-notice.tsx'
import { leaveFor } from '#web/features/billing/leave-for.ts'
import { hasPaidPlan, planChangeFor } from '#web/features/billing/plan-change.ts'
import { getUsage } from '#web/features/usage/api/get-usage.ts'
import { QuotaMeter } from '#web/features/usage/components/quota-meter.tsx'
import { formatDate } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'
import { useResource } from '#web/lib/use-resource.ts'

type Pending = { kind: 'choose'; plan: Plan } | { kind: 'cancel' } | null

const cardClass = 'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6'

export function BillingPage() {
  const { t, locale } = useI18n()
  const location = useLocation()
  const billingState = useResource(getBilling)
  const usage = useResource(getUsage)
  const [pending, setPending] = useState<Pending>(null)
  const [message, setMessage] = useState('')
  const statusRef = useRef<HTMLParagraphElement>(null)
  // After a change the dialog hands focus to the confirmation message; after "Not now", back to its opener.
  const focusAfterDialogRef = useRef<HTMLElement | null>(null)
  useDocumentTitle(t('billing.title'))

  function open(next: Pending) {
    setMessage('')
    focusAfterDialogRef.current = null
    setPending(next)
  }

  function adopt(billing: BillingResponse, text: string) {
    billingState.replace(billing)
    usage.reload()
    focusAfterDialogRef.current = statusRef.current
    setPending(null)
    setMessage(text)
  }

  const billing = billingState.status === 'ready' ? billingState.data : null
  const subscription = billing?.subscription ?? null
  const activePlanId = subscription?.status === 'active' ? subscription.planId : null
  // A plan paid at the provider: changes are upgrades now or downgrades at the period's end.
  const paidSubscription = billing && hasPaidPlan(billing) ? subscription : null
  const currentPlanId = paidSubscription?.planId ?? activePlanId

  return (
    <>
      <PageHeader title={t('billing.title')} subtitle={t('billing.subtitle')} />
      <Container className="space-y-8 py-8 sm:py-12">
        <p
          ref={statusRef}
          role="status"
          tabIndex={-1}
          data-testid="billing-message"
          className={
            message
              ? 'rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 font-medium text-emerald-900 outline-none'
              : 'sr-only'
          }
        >
          {message}
        </p>
        <LoadState resource={billingState} {...loadText(t, 'billing')}>
          {(billing) => (
            <>
              {billing.canChangePlan ? (
                billing.provider === 'manual' ? (
                  <TestBillingNotice />
                ) : null
              ) : (
                <TestBillingNotice isOperatorManaged />
              )}

              {subscription?.status === 'past_due' && billing.hasCustomerPortal ? (
                <PastDueBanner planId={subscription.planId} />
              ) : null}

              <div className="grid gap-6 lg:grid-cols-5">
                <section aria-labelledby="billing-current-title" className={`${cardClass} lg:col-span-3`}>
                  <h2 id="billing-current-title" className="text-lg font-semibold text-slate-900">
                    {t('billing.current.title')}
                  </h2>
                  <div className="mt-4">
                    <CurrentPlanSummary subscription={subscription} canChoose={billing.canChangePlan} />
                  </div>
                  <div className="mt-6 flex flex-col gap-6 border-t border-slate-200 pt-6">
                    {paidSubscription ? (
                      <SubscriptionControls
                        subscription={paidSubscription}
                        finalFocusRef={focusAfterDialogRef}
                        onChanged={(next, text) => adopt(next, text)}
                      />
                    ) : activePlanId && billing.canChangePlan ? (
                      <div>
                        <button
                          type="button"
                          onClick={() => open({ kind: 'cancel' })}
                          className="rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
                        >
                          {t('billing.cancel.button')}
                        </button>
                      </div>
                    ) : null}
                    {billing.hasCustomerPortal ? (
                      <ManageBillingButton />
                    ) : (
                      <PortalButton
                        label={t('billing.portal.button')}
                        reason={t('billing.portal.unavailable')}
                      />
                    )}
                  </div>
                </section>

                <section
                  aria-labelledby="billing-usage-title"
                  className="rounded-2xl bg-brand-950 p-5 text-white shadow-sm sm:p-6 lg:col-span-2"
                >
                  <h2 id="billing-usage-title" className="text-lg font-semibold">
                    {t('billing.usage.title')}
                  </h2>
                  <LoadState
                    resource={usage}
                    loading={
                      <div className="mt-6 text-brand-100">
                        <Spinner label={t('billing.usage.loading')} />
                      </div>
                    }
                    variant="inline"
                    className="mt-4"
                    errorTitle={t('billing.usage.error')}
                    retryLabel={t('billing.error.retry')}
                  >
                    {(usage) =>
                      usage.subscription === null ? (
                        <p className="mt-4 text-sm text-brand-100" data-testid="usage-no-plan">
                          {t('billing.usage.noPlan')}
                        </p>
                      ) : (
                        <div className="mt-6 space-y-6">
                          {usage.period ? (
                            <p className="text-sm text-brand-100" data-testid="usage-renews">
                              {t(
                                usage.subscription.isTrial
                                  ? 'billing.usage.trialEnds'
                                  : 'billing.usage.renews',
                                {
                                  date: formatDate(locale, usage.period.end),
                                },
                              )}
                            </p>
                          ) : null}
                          <QuotaMeter resource="images" {...usage.images} credits={usage.credits.images} />
                          <QuotaMeter resource="videos" {...usage.videos} credits={usage.credits.videos} />
                          <p className="text-sm text-brand-100">{t('billing.usage.seo')}</p>
                        </div>
                      )
                    }
                  </LoadState>
                </section>
              </div>

              <BuyCredits
                hasCheckout={billing.hasCheckout}
                focusOnShow={location.hash === `#${buyCreditsId}`}
              />

              <section aria-labelledby="billing-plans-title">
                <h2 id="billing-plans-title" className="text-lg font-semibold text-slate-900">
                  {t(
                    !billing.canChangePlan
                      ? 'billing.plans.titleOperator'
                      : currentPlanId
                        ? 'billing.plans.title'
                        : 'billing.plans.titleNone',
                  )}
                </h2>
                <p className="mt-1 mb-4 text-sm text-slate-600">
                  {t(
                    !billing.canChangePlan
                      ? 'billing.plans.subtitleOperator'
                      : paidSubscription
                        ? 'billing.plans.subtitlePaid'
                        : billing.hasCheckout
                          ? 'billing.plans.subtitleCheckout'
                          : 'billing.plans.subtitle',
                  )}
                </p>
                <PlanOptions
                  currentPlanId={currentPlanId}
                  canChoose={billing.canChangePlan}
                  onChoose={(plan) => open({ kind: 'choose', plan })}
                />
              </section>
            </>
          )}
        </LoadState>
      </Container>

      {pending?.kind === 'choose' ? (
        <ChoosePlanDialog
          plan={pending.plan}
          isSwitch={activePlanId !== null}
          isTestBilling={billing?.provider === 'manual'}
          change={billing?.hasCheckout ? planChangeFor(billing, pending.plan) : undefined}
          currentPlan={paidSubscription ? getPlan(paidSubscription.planId) : undefined}
          periodEnd={paidSubscription?.currentPeriodEnd}
          finalFocusRef={focusAfterDialogRef}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            const change = billing ? planChangeFor(billing, pending.plan) : 'test'
            if (change === 'checkout') {
              // The browser leaves for the payment page; the dialog stays busy meanwhile.
              leaveFor((await startPlanCheckout(pending.plan.id)).url)
              return
            }
            const next = await choosePlan(pending.plan.id)
            const scheduled = next.subscription?.scheduledPlanId
            adopt(
              next,
              change === 'downgrade' && scheduled && next.subscription
                ? t('billing.scheduled.done', {
                    plan: getPlan(scheduled).name,
                    date: formatDate(locale, next.subscription.currentPeriodEnd),
                  })
                : t('billing.done.changed', { plan: pending.plan.name }),
            )
          }}
        />
      ) : null}
      {pending?.kind === 'cancel' && activePlanId ? (
        <ConfirmDialog
          tone="danger"
          title={t('billing.cancel.title')}
          body={<p>{t('billing.cancel.body', { plan: getPlan(activePlanId).name })}</p>}
          confirmLabel={t('billing.cancel.confirm')}
          cancelLabel={t('billing.cancel.keep')}
          busyLabel={t('billing.working')}
          finalFocusRef={focusAfterDialogRef}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            adopt(await cancelSubscription(), t('billing.done.canceled'))
          }}
        />
      ) : null}
    </>
  )
}
