import { type Plan, type PlanId, plans } from '#shared/plans.ts'
import { Badge } from '#web/components/ui/badge.tsx'
import { Button } from '#web/components/ui/button.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/** The catalogue's plans as a compact list to switch between; the current one is marked. */
export function PlanOptions(props: {
  currentPlanId: PlanId | null
  onChoose: (plan: Plan) => void
  isDisabled?: boolean
  /** False when the operator sets plans: the other plans are shown without a button. */
  canChoose?: boolean
}) {
  const { t, formatUsd } = useI18n()
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {plans.map((plan) => {
        const isCurrent = plan.id === props.currentPlanId
        const nameId = `plan-option-${plan.id}`
        return (
          <li
            key={plan.id}
            aria-labelledby={nameId}
            aria-current={isCurrent ? 'true' : undefined}
            data-plan={plan.id}
            className={`flex flex-col rounded-2xl border bg-white p-5 shadow-sm ${
              isCurrent ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200'
            }`}
          >
            <div className="flex items-start justify-between gap-2">
              <h3 id={nameId} className="text-base font-semibold text-slate-900">
                {plan.name}
              </h3>
              {isCurrent ? <Badge>{t('billing.plans.current')}</Badge> : null}
            </div>
            <p className="mt-2 text-2xl font-bold tracking-tight text-slate-900">
              {t('billing.current.perMonth', { price: formatUsd(plan.priceMonthlyUsd) })}
            </p>
            <p className="mt-2 flex-1 text-sm text-slate-600">
              {t('billing.current.quotas', { images: plan.imageQuota, videos: plan.videoQuota })}
            </p>
            {isCurrent ? (
              <Button variant="secondary" className="mt-4 w-full" disabled>
                {t('billing.plans.current')}
              </Button>
            ) : props.canChoose === false ? null : (
              <Button
                variant={plan.isMostPopular ? 'primary' : 'secondary'}
                className="mt-4 w-full"
                disabled={props.isDisabled}
                onClick={() => props.onChoose(plan)}
              >
                {t('billing.plans.choose', { plan: plan.name })}
              </Button>
            )}
          </li>
        )
      })}
    </ul>
  )
}
