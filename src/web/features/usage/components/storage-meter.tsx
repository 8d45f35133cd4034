import { useId } from 'react'
import { percentUsed, quotaLevel } from '#shared/quota.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { formatBytes } from '../format-bytes.ts'

/** Storage used by uploads and results against the plan's storage, on the dark usage panel. */
export function StorageMeter(props: { usedBytes: number; quotaBytes: number }) {
  const { usedBytes, quotaBytes } = props
  const { t, locale } = useI18n()
  const labelId = useId()
  const level = quotaLevel(usedBytes, quotaBytes)
  const percent = percentUsed(usedBytes, quotaBytes)
  const vars = { used: formatBytes(locale, usedBytes), quota: formatBytes(locale, quotaBytes), percent }
  return (
    <div data-testid="meter-storage" data-level={level}>
      <div className="flex items-baseline justify-between gap-3">
        <span id={labelId} className="text-sm font-medium text-brand-100">
          {t('app.storage.label')}
        </span>
        <span className="text-xl font-semibold tabular-nums text-white" data-testid="storage-value">
          {t('app.storage.value', vars)}
        </span>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: styled like the quota meters beside it */}
      <div
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={quotaBytes}
        aria-valuenow={Math.min(usedBytes, quotaBytes)}
        aria-valuetext={t('app.storage.valueText', vars)}
        className="mt-3 h-3 overflow-hidden rounded-full bg-white/15"
      >
        <div
          className={`h-full rounded-full transition-[width] ${level === 'blocked' ? 'bg-red-500' : level === 'ok' ? 'bg-white' : 'bg-yellow-400'}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-2 text-sm text-brand-100">
        {level === 'blocked' ? t('app.storage.full') : t('app.storage.note')}
      </p>
    </div>
  )
}
