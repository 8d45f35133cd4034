import type { RefObject } from 'react'
import type { Plan } from '#shared/plans.ts'
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx'
import { formatDate } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import type { PlanChange } from '../plan-change.ts'

/**
 * "Activate Growth?": what the plan costs and allows, and what choosing it does: with test
 * billing that no payment is taken; with a paid provider that it goes to the payment page
 * (checkout), is charged the prorated difference now (upgrade), or starts at the period's end
 * (downgrade).
 */
export function ChoosePlanDialog(props: {
  plan: Plan
  /** Whether another plan is active now (and will end). */
  isSwitch: boolean
  isTestBilling: boolean
  /** With a paid provider: what choosing does. Absent: test billing's immediate change. */
  change?: PlanChange
  /** For a downgrade: the plan kept until `periodEnd` (ISO). */
  currentPlan?: Plan
  periodEnd?: string
  onConfirm: () => Promise<void>
  onClose: () => void
  finalFocusRef?: RefObject<HTMLElement | null>
}) {
  const { t, formatUsd, locale } = useI18n()
  const { plan } = props
  const vars = {
    plan: plan.name,
    price: formatUsd(plan.priceMonthlyUsd),
    images: plan.imageQuota,
    videos: plan.videoQuota,
    current: props.currentPlan?.name ?? '',
    date: props.periodEnd ? formatDate(locale, props.periodEnd) : '',
  }
  const change = props.change ?? 'test'
  const text =
    change === 'test'
      ? {
          title: t(props.isSwitch ? 'billing.confirmPlan.title' : 'billing.confirmPlan.titleNew', vars),
          body: t(props.isSwitch ? 'billing.confirmPlan.body' : 'billing.confirmPlan.bodyNew', vars),
          confirm: t('billing.confirmPlan.confirm', vars),
        }
      : {
          title: t(`billing.${change}.title`, vars),
          body: t(`billing.${change}.body`, vars),
          confirm: t(`billing.${change}.confirm`, vars),
        }
  return (
    <ConfirmDialog
      title={text.title}
      body={
        <>
          <p>{text.body}</p>
          {props.isTestBilling ? (
            <p className="font-medium text-slate-900">{t('billing.confirmPlan.testNote')}</p>
          ) : null}
        </>
      }
      confirmLabel={text.confirm}
      cancelLabel={t('billing.confirmPlan.cancel')}
      busyLabel={t(change === 'checkout' ? 'billing.redirecting' : 'billing.working')}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
      finalFocusRef={props.finalFocusRef}
    />
  )
}
