import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { getPlan, isPlanId, type Plan, plans } from '#shared/plans.ts'
import { PageIntro } from '#web/components/ui/page-header.tsx'
import { choosePlan, getBilling, startPlanCheckout } from '#web/features/billing/api/billing-api.ts'
import { ChoosePlanDialog } from '#web/features/billing/components/choose-plan-dialog.tsx'
import { leaveFor } from '#web/features/billing/leave-for.ts'
import { hasPaidPlan, planChangeFor } from '#web/features/billing/plan-change.ts'
import { PlanCard } from '#web/features/plans/components/plan-card.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'
import { useSession } from '#web/lib/session.tsx'
import { useResource } from '#web/lib/use-resource.ts'

export function PricingPage() {
  const { t } = useI18n()
  const localized = useLocalizedHref()
  const session = useSession()
  const isSignedIn = session.status === 'signed-in'
  const [searchParams] = useSearchParams()
  const navigate = useNavigate()
  // Signed in, the cards choose a plan; the current one comes from the billing API.
  const billingState = useResource(getBilling, { isEnabled: isSignedIn })
  const [choosing, setChoosing] = useState<Plan | null>(null)

  const requested = searchParams.get('plan')
  const selectedPlanId = isSignedIn && isPlanId(requested) ? requested : null
  const billing = billingState.status === 'ready' ? billingState.data : null
  const subscription = billing?.subscription
  const activePlanId = subscription?.status === 'active' ? subscription.planId : null
  // A plan paid at the provider (also while a payment is due) is the one changes start from.
  const paidSubscription = billing && hasPaidPlan(billing) ? (subscription ?? null) : null
  const currentPlanId = paidSubscription?.planId ?? activePlanId

  return (
    <>
      <PageIntro keys="pricing">
        <div className="grid gap-8 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              isSelected={plan.id === selectedPlanId}
              choice={
                isSignedIn
                  ? {
                      isCurrent: plan.id === currentPlanId,
                      // Wait for the current plan, so a card never flips from "Choose" to "Current plan".
                      isDisabled: billingState.status === 'loading',
                      canChoose: billing?.canChangePlan !== false,
                      onChoose: () => setChoosing(plan),
                    }
                  : undefined
              }
            />
          ))}
        </div>
        {billing?.canChangePlan === false ? (
          <p className="mt-10 text-center text-sm text-slate-600" data-testid="operator-billing-note">
            {t('billing.operator.body')}
          </p>
        ) : null}
        <p className="mt-10 text-center text-sm text-slate-600">{t('pricing.quotaNote')}</p>
        <p className="mt-2 text-center text-sm text-slate-600">
          {t('pricing.enterprise')}
          <Link to={localized(href('contact'))} className="font-semibold text-brand-700 hover:underline">
            {t('pricing.enterpriseLink')}
          </Link>
        </p>
      </PageIntro>
      {choosing ? (
        <ChoosePlanDialog
          plan={choosing}
          isSwitch={currentPlanId !== null}
          isTestBilling={billing?.provider === 'manual'}
          change={billing?.hasCheckout ? planChangeFor(billing, choosing) : undefined}
          currentPlan={paidSubscription ? getPlan(paidSubscription.planId) : undefined}
          periodEnd={paidSubscription?.currentPeriodEnd}
          onClose={() => setChoosing(null)}
          onConfirm={async () => {
            const change = billing ? planChangeFor(billing, choosing) : 'test'
            if (change === 'checkout') {
              // The browser leaves for the payment page and comes back to /billing/success.
              leaveFor((await startPlanCheckout(choosing.id)).url)
              return
            }
            await choosePlan(choosing.id)
            // A downgrade is only scheduled: /billing shows it (and its undo).
            navigate(change === 'downgrade' ? href('billing') : href('dashboard'))
          }}
        />
      ) : null}
    </>
  )
}
