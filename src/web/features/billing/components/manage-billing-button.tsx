import { useId } from 'react'
import { Button } from '#web/components/ui/button.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { openCustomerPortal } from '../api/billing-api.ts'
import { useProviderRedirect } from '../hooks/use-provider-redirect.ts'

/** Manage Billing: opens the provider's customer portal (invoices, card, receipts). */
export function ManageBillingButton() {
  const { t } = useI18n()
  const hintId = useId()
  const redirect = useProviderRedirect()
  const isBusy = redirect.busy !== null
  return (
    <div className="flex flex-col gap-2">
      <Button
        variant="secondary"
        className="self-start"
        aria-describedby={hintId}
        disabled={isBusy}
        data-testid="manage-billing"
        onClick={() => redirect.go('portal', openCustomerPortal)}
      >
        {isBusy ? <Spinner className="size-4!" /> : null}
        {isBusy ? t('billing.redirecting') : t('billing.portal.button')}
      </Button>
      <p id={hintId} className="text-sm text-slate-600">
        {t('billing.manage.hint')}
      </p>
      {redirect.error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {redirect.error}
        </p>
      ) : null}
    </div>
  )
}
