import type { RefObject } from 'react'
import type { Plan } from '#shared/plans.ts'
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/** "Activate Growth?": what the plan costs and allows, and that test billing takes no payment. */
export function ChoosePlanDialog(props: {
  plan: Plan
  /** Whether another plan is active now (and will end). */
  isSwitch: boolean
  isTestBilling: boolean
  onConfirm: () => Promise<void>
  onClose: () => void
  finalFocusRef?: RefObject<HTMLElement | null>
}) {
  const { t, formatUsd } = useI18n()
  const { plan } = props
  const vars = {
    plan: plan.name,
    price: formatUsd(plan.priceMonthlyUsd),
    images: plan.imageQuota,
    videos: plan.videoQuota,
  }
  return (
    <ConfirmDialog
      title={t(props.isSwitch ? 'billing.confirmPlan.title' : 'billing.confirmPlan.titleNew', vars)}
      body={
        <>
          <p>{t(props.isSwitch ? 'billing.confirmPlan.body' : 'billing.confirmPlan.bodyNew', vars)}</p>
          {props.isTestBilling ? (
            <p className="font-medium text-slate-900">{t('billing.confirmPlan.testNote')}</p>
          ) : null}
        </>
      }
      confirmLabel={t('billing.confirmPlan.confirm', vars)}
      cancelLabel={t('billing.confirmPlan.cancel')}
      busyLabel={t('billing.working')}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
      finalFocusRef={props.finalFocusRef}
    />
  )
}
