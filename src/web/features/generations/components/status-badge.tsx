import type { GenerationStatus } from '#shared/contracts/generations.ts'
import { BookmarkIcon, CheckIcon, CrossIcon } from '#web/components/ui/icons.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

const tones: Record<GenerationStatus, string> = {
  queued: 'bg-slate-100 text-slate-800 ring-slate-300',
  running: 'bg-brand-50 text-brand-900 ring-brand-200',
  succeeded: 'bg-emerald-50 text-emerald-900 ring-emerald-200',
  failed: 'bg-red-50 text-red-900 ring-red-200',
  canceled: 'bg-slate-100 text-slate-700 ring-slate-300',
}

/** A generation's state in a word, with a shape besides the colour (a dot, a ring, a cross). */
export function StatusBadge(props: { status: GenerationStatus }) {
  const { t } = useI18n()
  const { status } = props
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${tones[status]}`}
      data-testid="status-badge"
      data-status={status}
    >
      {status === 'running' || status === 'queued' ? (
        <span
          aria-hidden="true"
          className={`inline-block size-2.5 rounded-full border-2 border-current ${
            status === 'running' ? 'animate-spin border-t-transparent' : 'opacity-60'
          }`}
        />
      ) : status === 'succeeded' ? (
        <CheckIcon className="size-3" />
      ) : (
        <CrossIcon className="size-3" />
      )}
      {t(`studio.library.status.${status}`)}
    </span>
  )
}

/** The "Saved" mark of a generation kept in the library. */
export function SavedMark() {
  const { t } = useI18n()
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-200 ring-inset"
      data-testid="saved-mark"
    >
      <BookmarkIcon className="size-3" filled />
      {t('studio.library.savedMark')}
    </span>
  )
}
