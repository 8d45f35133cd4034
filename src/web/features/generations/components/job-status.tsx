import type { ReactNode } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { isErrorCode } from '#shared/errors.ts'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useElapsedSeconds } from '../hooks/use-generation.ts'

/**
 * A running job: its state (announced politely to screen readers when it changes), the time
 * it has taken so far (not announced: it ticks), the way out to the library, and Cancel.
 */
export function JobStatus(props: {
  generation: GenerationView
  onCancel?: () => void
  isCanceling?: boolean
  /** Off where the page has its own live region for the job (the studio result panel). */
  announce?: boolean
  /** Off where the user already is in the library. */
  showLibraryNote?: boolean
}) {
  const { t, formatNumber } = useI18n()
  const { generation } = props
  const isRunning = generation.status === 'running'
  const seconds = useElapsedSeconds(generation.createdAt, true)
  const label =
    generation.status === 'queued' && generation.isRetrying
      ? t('studio.job.retrying')
      : generation.status === 'queued'
        ? generation.queuePosition
          ? t('studio.job.queuedAt', { position: formatNumber(generation.queuePosition) })
          : t('studio.job.queued')
        : generation.mode === 'video'
          ? t('studio.job.runningVideo')
          : t('studio.job.running')
  return (
    <div
      className="rounded-2xl border border-brand-200 bg-brand-50 p-5"
      data-testid="job-status"
      data-status={generation.status}
    >
      <div className="flex items-center gap-3">
        <Spinner className="text-brand-700" />
        <p
          role={props.announce === false ? undefined : 'status'}
          className="font-semibold text-brand-950"
          data-testid="job-state"
        >
          {label}
        </p>
        <span className="ml-auto font-mono text-sm text-brand-900 tabular-nums" data-testid="job-elapsed">
          {t('studio.job.elapsed', { seconds: formatNumber(seconds) })}
        </span>
      </div>
      <div
        className="mt-3 h-1.5 overflow-hidden rounded-full bg-brand-100"
        role="progressbar"
        aria-label={t('studio.job.progressLabel')}
        aria-valuetext={label}
      >
        <div className={`h-full rounded-full bg-brand-600 ${isRunning ? 'w-2/3 animate-pulse' : 'w-1/6'}`} />
      </div>
      {props.showLibraryNote === false ? null : (
        <p className="mt-3 text-sm text-brand-950">
          {t('studio.job.leave')}{' '}
          <TextLink to={href('library')} tone="inherit">
            {t('studio.job.libraryLink')}
          </TextLink>
          .
        </p>
      )}
      {props.onCancel ? (
        <JobButton look="quiet" onClick={props.onCancel} disabled={props.isCanceling}>
          {t('studio.job.cancel')}
        </JobButton>
      ) : null}
    </div>
  )
}

/** Why a generation failed, in words: the code's message under the "Generation failed" headline. */
export function JobFailure(props: { generation: GenerationView; onRetry?: () => void }) {
  const { t } = useI18n()
  const { generation } = props
  const headline = generation.mode === 'video' ? t('studio.result.videoError') : t('studio.result.error')
  const code = generation.errorCode
  const detail = isErrorCode(code) && code !== 'INTERNAL' ? t(`errors.${code}`) : null
  return (
    <div
      role="alert"
      className="rounded-2xl border border-red-200 bg-red-50 p-5 text-red-900"
      data-testid="job-error"
    >
      <p className="font-semibold">{headline}</p>
      {generation.status === 'canceled' ? (
        <p className="mt-1 text-sm">{t('studio.job.canceled')}</p>
      ) : detail ? (
        <p className="mt-1 text-sm" data-testid="job-error-detail">
          {detail}
        </p>
      ) : null}
      {props.onRetry ? (
        <JobButton look="onError" onClick={props.onRetry}>
          {t('studio.result.tryAgain')}
        </JobButton>
      ) : null}
    </div>
  )
}

const jobButtonLooks = {
  /** An underlined word on the job's panel (Cancel). */
  quiet:
    'px-2 py-1 text-slate-700 underline underline-offset-4 hover:text-slate-900 focus-visible:outline-brand-700 disabled:opacity-60',
  /** A white button on the red failure panel (Try again). */
  onError:
    'border border-red-300 bg-white px-3 py-1.5 text-red-900 hover:bg-red-100 focus-visible:outline-red-700',
}

/** What can be done with a job from its panel, under the panel's text. */
function JobButton(props: {
  look: keyof typeof jobButtonLooks
  onClick: () => void
  disabled?: boolean | undefined
  children: ReactNode
}) {
  return (
    <button
      type="button"
      onClick={props.onClick}
      disabled={props.disabled}
      className={`mt-3 rounded-md text-sm font-semibold focus-visible:outline-2 ${jobButtonLooks[props.look]}`}
    >
      {props.children}
    </button>
  )
}
