import { percentUsed, quotaLevel } from '#shared/quota.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { formatBytes } from '../format-bytes.ts'
import { Meter } from './meter.tsx'

/** Storage used by uploads and results against the plan's storage, on the dark usage panel. */
export function StorageMeter(props: { usedBytes: number; quotaBytes: number }) {
  const { usedBytes, quotaBytes } = props
  const { t, locale } = useI18n()
  const level = quotaLevel(usedBytes, quotaBytes)
  const percent = percentUsed(usedBytes, quotaBytes)
  const vars = { used: formatBytes(locale, usedBytes), quota: formatBytes(locale, quotaBytes), percent }
  return (
    <Meter
      testId="meter-storage"
      level={level}
      label={t('app.storage.label')}
      value={
        <span className="text-xl font-semibold tabular-nums text-white" data-testid="storage-value">
          {t('app.storage.value', vars)}
        </span>
      }
      used={usedBytes}
      max={quotaBytes}
      valueText={t('app.storage.valueText', vars)}
      percent={percent}
      fillClass={level === 'blocked' ? 'bg-red-500' : level === 'ok' ? 'bg-white' : 'bg-yellow-400'}
    >
      <p className="mt-2 text-sm text-brand-100">
        {level === 'blocked' ? t('app.storage.full') : t('app.storage.note')}
      </p>
    </Meter>
  )
}
