import { getPlan, type PlanId } from '#shared/plans.ts'
import { Button } from '#web/components/ui/button.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { openCustomerPortal } from '../api/billing-api.ts'
import { useProviderRedirect } from '../hooks/use-provider-redirect.ts'

/** A renewal payment failed (status past_due): says so, with the way to fix the card (the portal). */
export function PastDueBanner(props: { planId: PlanId }) {
  const { t } = useI18n()
  const redirect = useProviderRedirect()
  const isBusy = redirect.busy !== null
  return (
    <div
      role="alert"
      data-testid="past-due-banner"
      className="flex flex-col gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-red-950 sm:flex-row sm:items-center sm:justify-between"
    >
      <div>
        <p className="font-semibold">{t('billing.pastDue.title')}</p>
        <p className="mt-1 text-sm">{t('billing.pastDue.body', { plan: getPlan(props.planId).name })}</p>
        {redirect.error ? <p className="mt-2 text-sm font-medium text-red-800">{redirect.error}</p> : null}
      </div>
      <Button
        variant="danger"
        className="shrink-0 self-start sm:self-auto"
        disabled={isBusy}
        onClick={() => redirect.go('portal', openCustomerPortal)}
      >
        {isBusy ? <Spinner className="size-4!" /> : null}
        {isBusy ? t('billing.redirecting') : t('billing.pastDue.fix')}
      </Button>
    </div>
  )
}
