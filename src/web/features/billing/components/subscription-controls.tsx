import { type RefObject, useState } from 'react'
import type { BillingResponse, SubscriptionView } from '#shared/contracts/billing.ts'
import { getPlan } from '#shared/plans.ts'
import { Button } from '#web/components/ui/button.tsx'
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { formatDate } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { cancelSubscription, choosePlan, resumeSubscription } from '../api/billing-api.ts'

/**
 * A paid subscription's pending changes and their undo: a downgrade scheduled for the period's
 * end ("Changes to Starter on …", keep the current plan), a cancel at the period's end (resume),
 * or else Cancel subscription, which asks first and takes effect when the period ends.
 * `onChanged` gets the new billing view and the sentence to announce.
 */
export function SubscriptionControls(props: {
  subscription: SubscriptionView
  onChanged: (billing: BillingResponse, message: string) => void
  finalFocusRef?: RefObject<HTMLElement | null>
}) {
  const { t, locale } = useI18n()
  const { subscription } = props
  const [isConfirming, setConfirming] = useState(false)
  const [isBusy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const plan = getPlan(subscription.planId)
  const date = formatDate(locale, subscription.currentPeriodEnd)

  async function run(request: () => Promise<BillingResponse>, message: (next: BillingResponse) => string) {
    setBusy(true)
    setError(null)
    try {
      const next = await request()
      props.onChanged(next, message(next))
    } catch (caught) {
      setError(t(errorMessageKey(caught)))
    } finally {
      setBusy(false)
    }
  }

  const noticeClass =
    'flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between'

  return (
    <div className="flex flex-col gap-3">
      {subscription.cancelAtPeriodEnd ? (
        <div className={noticeClass} data-testid="cancel-scheduled">
          <p className="text-sm font-medium">{t('billing.periodEnd.notice', { plan: plan.name, date })}</p>
          <Button
            variant="primary"
            className="shrink-0 self-start sm:self-auto"
            disabled={isBusy}
            onClick={() =>
              run(resumeSubscription, (next) =>
                t('billing.periodEnd.resumed', {
                  date: formatDate(
                    locale,
                    next.subscription?.currentPeriodEnd ?? subscription.currentPeriodEnd,
                  ),
                }),
              )
            }
          >
            {isBusy ? <Spinner className="size-4!" /> : null}
            {t('billing.periodEnd.resume')}
          </Button>
        </div>
      ) : subscription.scheduledPlanId ? (
        <div className={noticeClass} data-testid="change-scheduled">
          <p className="text-sm font-medium">
            {t('billing.scheduled.notice', { plan: getPlan(subscription.scheduledPlanId).name, date })}
          </p>
          <Button
            variant="secondary"
            className="shrink-0 self-start sm:self-auto"
            disabled={isBusy}
            onClick={() =>
              // Choosing the plan one has undoes the scheduled downgrade.
              run(
                () => choosePlan(subscription.planId),
                () => t('billing.scheduled.undone', { plan: plan.name }),
              )
            }
          >
            {isBusy ? <Spinner className="size-4!" /> : null}
            {t('billing.scheduled.undo', { current: plan.name })}
          </Button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {subscription.cancelAtPeriodEnd ? null : (
        <div>
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className="rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
          >
            {t('billing.cancel.button')}
          </button>
        </div>
      )}
      {isConfirming ? (
        <ConfirmDialog
          tone="danger"
          title={t('billing.periodEnd.title')}
          body={<p>{t('billing.periodEnd.body', { plan: plan.name, date })}</p>}
          confirmLabel={t('billing.periodEnd.confirm', { date })}
          cancelLabel={t('billing.cancel.keep')}
          busyLabel={t('billing.working')}
          finalFocusRef={props.finalFocusRef}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            const next = await cancelSubscription()
            setConfirming(false)
            props.onChanged(next, t('billing.periodEnd.done', { date }))
          }}
        />
      ) : null}
    </div>
  )
}
