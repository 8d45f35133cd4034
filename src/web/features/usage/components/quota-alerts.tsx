import type { ReactNode } from 'react'
import { type QuotaLevel, type QuotaResource, quotaLevel } from '#shared/quota.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { AlertTriangleIcon, CrossIcon } from '#web/components/ui/icons.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useAlertDismissal } from '../hooks/use-alert-dismissal.ts'

type AlertLevel = Exclude<QuotaLevel, 'ok'>
type Usage = { used: number; quota: number }

const levelClass: Record<AlertLevel, string> = {
  warning: 'border-yellow-300 bg-yellow-50 text-yellow-950',
  danger: 'border-orange-300 bg-orange-50 text-orange-950',
  blocked: 'border-red-300 bg-red-50 text-red-950',
}
const iconClass: Record<AlertLevel, string> = {
  warning: 'text-yellow-600',
  danger: 'text-orange-600',
  blocked: 'text-red-600',
}

function AlertIcon(props: { level: AlertLevel }) {
  return <AlertTriangleIcon className={`mt-0.5 size-5 shrink-0 ${iconClass[props.level]}`} />
}

function QuotaAlert(props: {
  resource: QuotaResource
  level: AlertLevel
  /** Bought credits left for this resource: at 100 %, generation goes on from them. */
  credits: number
  onDismiss: () => void
  children?: ReactNode
}) {
  const { t, formatNumber } = useI18n()
  const { resource, level, credits } = props
  const message =
    level === 'blocked' && credits > 0
      ? t(`app.alerts.onCredits.${resource}`, { count: formatNumber(credits) })
      : t(`app.alerts.${resource}.${level}`)
  return (
    <div
      role="alert"
      data-testid={`quota-alert-${resource}`}
      data-level={level}
      className={`flex gap-3 rounded-xl border p-4 ${levelClass[level]}`}
    >
      <AlertIcon level={level} />
      <div className="flex flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm font-medium">{message}</p>
        {level === 'blocked' ? (
          <ButtonLink
            to={`${href('billing')}#buy-credits`}
            variant="primary"
            className="shrink-0 self-start sm:self-auto"
          >
            {t('app.alerts.buyMore')}
          </ButtonLink>
        ) : null}
      </div>
      <button
        type="button"
        onClick={props.onDismiss}
        aria-label={t('app.alerts.dismiss')}
        className="-m-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-black/5"
      >
        <CrossIcon className="size-4" strokeWidth={2.4} />
      </button>
    </div>
  )
}

/**
 * The 70 / 90 / 100 % alerts for images and videos (at 100 % with credits left, that generation
 * goes on from them). Each can be dismissed for the browser session; a dismissed alert comes
 * back when its resource reaches the next level.
 */
export function QuotaAlerts(props: {
  images: Usage
  videos: Usage
  credits?: { images: number; videos: number }
  onDismissed?: () => void
}) {
  const { t } = useI18n()
  const { isDismissed, dismiss } = useAlertDismissal()
  const resources: QuotaResource[] = ['images', 'videos']
  const shown = resources.flatMap((resource) => {
    const { used, quota } = props[resource]
    const level = quotaLevel(used, quota)
    return level === 'ok' || isDismissed(resource, level) ? [] : [{ resource, level }]
  })
  if (shown.length === 0) return null
  return (
    <section aria-label={t('app.alerts.regionLabel')} className="space-y-3">
      {shown.map(({ resource, level }) => (
        <QuotaAlert
          key={`${resource}-${level}`}
          resource={resource}
          level={level}
          credits={props.credits?.[resource] ?? 0}
          onDismiss={() => {
            dismiss(resource, level)
            props.onDismissed?.()
          }}
        />
      ))}
    </section>
  )
}
