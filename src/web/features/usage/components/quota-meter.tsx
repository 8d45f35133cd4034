import { percentUsed, type QuotaLevel, type QuotaResource, quotaLevel } from '#shared/quota.ts'
import { BlockedIcon } from '#web/components/ui/icons.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { Meter } from './meter.tsx'

/** Bar colour by level: white below 70 %, yellow from 70 %, orange from 90 %, red at 100 %. */
const fillClass: Record<QuotaLevel, string> = {
  ok: 'bg-white',
  warning: 'bg-yellow-400',
  danger: 'bg-orange-500',
  blocked: 'bg-red-500',
}

/**
 * One resource's quota as "used / quota" with a bar, on a dark panel, and bought credits beside
 * it ("+ 100 credits"). Exposed as a meter (aria-valuenow/min/max and a spoken value) named
 * after the resource. At 100 % with credits left, generation goes on from the credits.
 */
export function QuotaMeter(props: {
  resource: QuotaResource
  used: number
  quota: number
  credits?: number
}) {
  const { resource, used, quota } = props
  const credits = props.credits ?? 0
  const { t, formatNumber } = useI18n()
  const level = quotaLevel(used, quota)
  const percent = percentUsed(used, quota)
  const value = t('app.meter.value', { used, quota })
  return (
    <Meter
      testId={`meter-${resource}`}
      level={level}
      label={t(`app.meter.${resource}`)}
      value={
        <span className="flex flex-wrap items-baseline justify-end gap-x-2">
          <span className="text-xl font-semibold tabular-nums text-white" data-testid="meter-value">
            {value}
          </span>
          {credits > 0 ? (
            <span
              className="text-sm font-semibold tabular-nums text-emerald-300"
              data-testid="meter-credits"
              title={t('app.meter.creditsText', { count: formatNumber(credits) })}
            >
              {t('app.meter.credits', { count: formatNumber(credits) })}
            </span>
          ) : null}
        </span>
      }
      used={used}
      max={quota}
      valueText={t('app.meter.valueText', { used, quota, percent })}
      percent={percent}
      fillClass={fillClass[level]}
      fillTestId="meter-fill"
    >
      {level === 'blocked' && credits > 0 ? (
        <p className="mt-2 text-sm font-semibold text-emerald-300">{t('app.meter.onCredits')}</p>
      ) : level === 'blocked' ? (
        <p className="mt-2 flex items-center gap-1.5 text-sm font-semibold text-red-300">
          <BlockedIcon className="size-4" />
          {t('app.meter.blocked')}
        </p>
      ) : (
        <p className="mt-2 text-sm text-brand-100 tabular-nums">{t('app.meter.percent', { percent })}</p>
      )}
    </Meter>
  )
}
