import type { ReactNode } from 'react'
import { type GenerationView, isTerminalStatus } from '#shared/contracts/generations.ts'
import { Button } from '#web/components/ui/button.tsx'
import { ModalDialog } from '#web/components/ui/modal-dialog.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { formatDateTime } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { typeLabel } from '../generation-labels.ts'
import { useGenerationWatch } from '../hooks/use-generation.ts'
import { GenerationResult } from './generation-result.tsx'
import { JobFailure, JobStatus } from './job-status.tsx'
import { SavedMark, StatusBadge } from './status-badge.tsx'

/**
 * One generation, open: the full result as Create shows it (download, save, SEO copy buttons),
 * or its job while it runs (followed live), or why it failed; and Delete. `initial` is the
 * list's copy; without one (a link from the dashboard) the generation is fetched.
 */
export function GenerationDialog(props: {
  id: string
  initial: GenerationView | undefined
  onClose: () => void
  onDelete: (generation: GenerationView) => void
  onChange: (generation: GenerationView) => void
  /** The marketplace panel under a finished result; the page fills it (see GenerationResult). */
  marketplace?: (generation: GenerationView) => ReactNode
}) {
  const { t, locale } = useI18n()
  const { initial } = props
  const isKnownFinished = initial !== undefined && isTerminalStatus(initial.status)
  const watch = useGenerationWatch(isKnownFinished ? null : props.id, {
    initial,
    onSettled: props.onChange,
  })
  const generation = isKnownFinished ? initial : watch.status === 'ready' ? watch.generation : initial
  const error = !isKnownFinished && watch.status === 'error' ? watch.error : null

  return (
    <ModalDialog
      title={generation ? typeLabel(t, generation) : t('studio.library.title')}
      description={
        generation
          ? t('studio.library.createdAt', { date: formatDateTime(locale, generation.createdAt) })
          : undefined
      }
      onClose={props.onClose}
      size="lg"
    >
      <div className="mt-3 flex flex-wrap items-center gap-2" data-testid="item-dialog-meta">
        {generation ? (
          <>
            <StatusBadge status={generation.status} />
            {generation.isSaved ? <SavedMark /> : null}
          </>
        ) : null}
        <Button variant="secondary" className="ml-auto" onClick={props.onClose}>
          {t('studio.library.close')}
        </Button>
      </div>
      <div className="mt-5" data-testid="item-dialog-body">
        {error ? (
          <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900">
            {t('studio.library.openError')} {t(errorMessageKey(error))}
          </p>
        ) : !generation ? (
          <div className="flex min-h-40 items-center justify-center text-brand-700">
            <Spinner label={t('studio.library.loadingMore')} className="size-8" />
          </div>
        ) : generation.status === 'succeeded' ? (
          <GenerationResult
            generation={generation}
            onSavedChange={props.onChange}
            marketplace={props.marketplace}
          />
        ) : generation.status === 'failed' || generation.status === 'canceled' ? (
          <JobFailure generation={generation} />
        ) : (
          <JobStatus generation={generation} showLibraryNote={false} />
        )}
      </div>
      {generation ? (
        <div className="mt-6 flex justify-end border-t border-slate-200 pt-4">
          <button
            type="button"
            onClick={() => props.onDelete(generation)}
            className="inline-flex items-center gap-2 rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
          >
            {t('studio.library.delete')}
          </button>
        </div>
      ) : null}
    </ModalDialog>
  )
}
