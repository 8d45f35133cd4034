import { useI18n } from '#web/lib/i18n.tsx'

/**
 * Says plainly that no money moves: the `manual` provider activates plans without payment.
 * With `isOperatorManaged` (manual billing in production) it says instead that the team sets plans.
 */
export function TestBillingNotice(props: { isOperatorManaged?: boolean }) {
  const { t } = useI18n()
  return (
    <div
      data-testid={props.isOperatorManaged ? 'operator-billing-notice' : 'test-billing-notice'}
      className="flex gap-3 rounded-2xl border border-sky-200 bg-sky-50 p-4 text-sky-950 sm:p-5"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="mt-0.5 size-5 shrink-0 text-sky-700"
        fill="currentColor"
      >
        <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm0 4a1.1 1.1 0 1 1 0 2.2A1.1 1.1 0 0 1 10 6Zm1 8a1 1 0 1 1-2 0v-4a1 1 0 1 1 2 0v4Z" />
      </svg>
      <div>
        <p className="font-semibold">
          {props.isOperatorManaged ? t('billing.operator.title') : t('billing.testMode.title')}
        </p>
        <p className="mt-1 text-sm">
          {props.isOperatorManaged ? t('billing.operator.body') : t('billing.testMode.body')}
        </p>
      </div>
    </div>
  )
}
