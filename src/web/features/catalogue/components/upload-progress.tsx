import type { UploadProgress } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'

/** Percent of an upload sent so far (0 while the size is unknown). */
export function uploadPercent(progress: UploadProgress | null): number {
  return progress && progress.total > 0
    ? Math.min(100, Math.round((progress.loaded / progress.total) * 100))
    : 0
}

/** The bar and words of an upload: the percentage sent, then what the server is doing with it. */
export function UploadProgressBar(props: { progress: UploadProgress | null; afterUpload: string }) {
  const { t } = useI18n()
  const percent = uploadPercent(props.progress)
  const isSent = percent >= 100
  return (
    <div className="space-y-1.5">
      <div
        role="progressbar"
        aria-label={t('catalogue.file.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={isSent ? props.afterUpload : `${percent}%`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-slate-600" aria-live="polite">
        {isSent ? props.afterUpload : t('catalogue.file.uploading', { percent })}
      </p>
    </div>
  )
}
