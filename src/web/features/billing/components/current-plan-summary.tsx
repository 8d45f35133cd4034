import type { SubscriptionStatus, SubscriptionView } from '#shared/contracts/billing.ts'
import { getPlan } from '#shared/plans.ts'
import { Badge } from '#web/components/ui/badge.tsx'
import { formatDate } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'

const statusClass: Record<SubscriptionStatus, string> = {
  active: 'bg-emerald-100 text-emerald-900',
  past_due: 'bg-red-100 text-red-900',
  canceled: 'bg-slate-200 text-slate-900',
  expired: 'bg-amber-100 text-amber-950',
}

/** The subscription's plan, price, status and period; or that there is none. */
/** `canChoose` false: plans are set by the operator, so the text does not ask the user to choose one. */
export function CurrentPlanSummary(props: { subscription: SubscriptionView | null; canChoose?: boolean }) {
  const { t, locale, formatUsd } = useI18n()
  const { subscription } = props
  if (!subscription) {
    return (
      <div data-testid="current-plan">
        <p className="text-lg font-semibold text-slate-900">{t('billing.current.none')}</p>
        <p className="mt-1 text-slate-600">
          {t(props.canChoose === false ? 'billing.current.noneBodyOperator' : 'billing.current.noneBody')}
        </p>
      </div>
    )
  }
  const plan = getPlan(subscription.planId)
  // A plan whose renewal payment is due still runs (the provider retries), so it is shown as current.
  const isActive = subscription.status === 'active' || subscription.status === 'past_due'
  return (
    <div data-testid="current-plan" data-plan={plan.id} data-status={subscription.status}>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-2xl font-bold tracking-tight text-slate-900" data-testid="current-plan-name">
          {plan.name}
        </p>
        {subscription.isTrial ? <Badge>{t('billing.current.trial')}</Badge> : null}
      </div>
      <p className="mt-1 text-slate-700">
        {t('billing.current.perMonth', { price: formatUsd(plan.priceMonthlyUsd) })} ·{' '}
        {t('billing.current.quotas', { images: plan.imageQuota, videos: plan.videoQuota })}
      </p>
      <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600">{t('billing.current.statusLabel')}</dt>
          <dd className="mt-1">
            <span
              data-testid="subscription-status"
              className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusClass[subscription.status]}`}
            >
              {t(`billing.current.status.${subscription.status}`)}
            </span>
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">
            {t(isActive ? 'billing.current.periodLabel' : 'billing.current.lastPeriodLabel')}
          </dt>
          <dd className="mt-1 font-medium text-slate-900" data-testid="subscription-period">
            {t('billing.current.periodRange', {
              start: formatDate(locale, subscription.currentPeriodStart),
              end: formatDate(locale, subscription.currentPeriodEnd),
            })}
          </dd>
        </div>
      </dl>
      {isActive ? null : (
        <p className="mt-4 text-slate-600">
          {t(props.canChoose === false ? 'billing.current.noneBodyOperator' : 'billing.current.inactiveBody')}
        </p>
      )}
    </div>
  )
}
