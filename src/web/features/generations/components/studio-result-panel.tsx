import { type ReactNode, useEffect, useId, useRef } from 'react'
import { type GenerationView, isTerminalStatus } from '#shared/contracts/generations.ts'
import { Button } from '#web/components/ui/button.tsx'
import { inputClasses } from '#web/components/ui/form-field.tsx'
import { ImageIcon } from '#web/components/ui/icons.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import type { useStudioJob } from '../hooks/use-studio-job.ts'
import { isBlocked, type ModeQuota } from '../mode-quota.ts'
import { GenerationResult } from './generation-result.tsx'
import { JobFailure, JobStatus } from './job-status.tsx'

type StudioJob = ReturnType<typeof useStudioJob>

/**
 * The right-hand panel of Create and Fashion: an empty state, the running job, its failure, or
 * its result; under an image result, the convert-to-video box with its own progress. A finished
 * video replaces the image it was made from.
 */
export function StudioResultPanel(props: {
  studio: StudioJob
  videoQuota: ModeQuota
  autoPlayVideo?: boolean
  /** Videos are made by an AI provider: only then does the default promise a 360° rotation. */
  isVideoAi?: boolean
  /**
   * The marketplace panel under a finished result; the page fills it (see GenerationResult). A
   * finished video is shown in place of its image: `madeFrom` is then that image, so what belongs
   * to the image (publishing it, the video with it) stays on the page.
   */
  marketplace?: (generation: GenerationView, madeFrom?: GenerationView) => ReactNode
}) {
  const { t } = useI18n()
  const { studio } = props
  const job = studio.jobGeneration
  const video = studio.videoGeneration
  const sectionRef = useRef<HTMLElement>(null)

  // On a phone the panel sits under the form: bring a new job's progress into view.
  useEffect(() => {
    const section = sectionRef.current
    if (!studio.jobId || !section) return
    if (section.getBoundingClientRect().top < window.innerHeight * 0.4) return
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false
    section.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' })
  }, [studio.jobId])

  // One live region that outlives each state's markup, so "done" or "failed" is heard too.
  const current = video && studio.videoId ? video : job
  const announcement = !current
    ? ''
    : current.status === 'queued'
      ? t('studio.job.queued')
      : current.status === 'running'
        ? current.mode === 'video'
          ? t('studio.job.runningVideo')
          : t('studio.job.running')
        : current.status === 'succeeded'
          ? t('studio.job.succeeded')
          : current.status === 'canceled'
            ? t('studio.job.canceled')
            : current.mode === 'video'
              ? t('studio.result.videoError')
              : t('studio.result.error')

  let body: React.ReactNode
  if (!studio.jobId) {
    body = (
      <div className="flex min-h-72 flex-col items-center justify-center rounded-2xl border-2 border-dashed border-slate-200 px-6 py-10 text-center">
        <ImageIcon className="h-10 w-10 text-slate-400" />
        <p className="mt-3 font-semibold text-slate-900">{t('studio.result.emptyTitle')}</p>
        <p className="mt-1 text-sm text-slate-600">{t('studio.result.emptyBody')}</p>
      </div>
    )
  } else if (studio.job.status === 'error') {
    body = (
      <p role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-5 text-sm text-red-900">
        {t('errors.NOT_FOUND')}
      </p>
    )
  } else if (!job) {
    body = (
      <div className="flex min-h-72 items-center justify-center">
        <Spinner label={t('studio.generate.working')} className="text-brand-700" />
      </div>
    )
  } else if (!isTerminalStatus(job.status)) {
    body = (
      <JobStatus
        generation={job}
        onCancel={() => void studio.cancel(job.id)}
        isCanceling={studio.isCanceling}
        announce={false}
      />
    )
  } else if (job.status !== 'succeeded') {
    body = <JobFailure generation={job} />
  } else {
    // A finished video from this image takes the image's place; until then the image offers one.
    const shown = video?.status === 'succeeded' ? video : job
    const { marketplace } = props
    body = (
      <GenerationResult
        key={shown.id}
        generation={shown}
        autoPlay={props.autoPlayVideo}
        marketplace={
          marketplace && shown !== job ? (generation) => marketplace(generation, job) : marketplace
        }
      >
        {shown === job && job.mode === 'image' ? (
          <ConvertToVideo
            studio={studio}
            sourceId={job.id}
            quota={props.videoQuota}
            isVideoAi={props.isVideoAi ?? false}
          />
        ) : null}
      </GenerationResult>
    )
  }

  return (
    <section
      ref={sectionRef}
      aria-labelledby="studio-result-title"
      className="scroll-mt-20 rounded-3xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="studio-result-title" className="mb-4 text-lg font-semibold text-slate-900">
        {t('studio.result.title')}
      </h2>
      <p role="status" className="sr-only" data-testid="job-announcement">
        {announcement}
      </p>
      <div data-testid="result-panel">{body}</div>
    </section>
  )
}

function ConvertToVideo(props: {
  studio: StudioJob
  sourceId: string
  quota: ModeQuota
  isVideoAi: boolean
}) {
  const { t } = useI18n()
  const { studio } = props
  const promptId = useId()
  const video = studio.videoGeneration
  const isVideoRunning = Boolean(studio.videoId) && (!video || !isTerminalStatus(video.status))
  const blocked = isBlocked(props.quota)
  const isDisabled = studio.isStartingVideo || isVideoRunning || blocked
  const form = useForm({
    initialValues: { prompt: '' },
    canSubmit: () => !isDisabled,
    // startVideo keeps its own refusal (studio.videoStartError, shown below) and a started video
    // replaces this form until it ends; either way the box must take the next try (after a
    // refusal, a failed or a canceled video), so a send leaves it idle, never sent.
    repeatable: true,
    action: (values) => studio.startVideo(props.sourceId, values.prompt),
  })

  return (
    <section
      aria-labelledby={`${promptId}-title`}
      className="rounded-2xl border border-slate-200 bg-slate-50 p-4"
      data-testid="convert-to-video"
    >
      <h3 id={`${promptId}-title`} className="font-semibold text-slate-900">
        {t('studio.toVideo.title')}
      </h3>
      <p className="text-sm text-slate-600">{t('studio.toVideo.body')}</p>
      {isVideoRunning && video ? (
        <div className="mt-3">
          <JobStatus
            generation={video}
            onCancel={() => void studio.cancel(video.id)}
            isCanceling={studio.isCanceling}
          />
        </div>
      ) : (
        <form {...form.formProps} className="mt-3 space-y-3">
          {video && (video.status === 'failed' || video.status === 'canceled') ? (
            <JobFailure generation={video} />
          ) : null}
          <div>
            <label htmlFor={promptId} className="block text-sm font-medium text-slate-900">
              {t('studio.toVideo.promptLabel')}
            </label>
            <input
              id={promptId}
              type="text"
              maxLength={1000}
              value={form.values.prompt}
              onChange={(event) => form.setValue('prompt', event.currentTarget.value)}
              placeholder={t(
                props.isVideoAi ? 'studio.toVideo.placeholderAi' : 'studio.toVideo.placeholderOffline',
              )}
              className={`${inputClasses} mt-1`}
            />
          </div>
          <Button type="submit" disabled={isDisabled} data-testid="create-video">
            {studio.isStartingVideo ? <Spinner className="size-4!" /> : null}
            {studio.isStartingVideo ? t('studio.toVideo.creating') : t('studio.toVideo.create')}
          </Button>
          {blocked && props.quota.kind === 'metered' ? (
            <p className="text-sm text-red-700" data-testid="video-quota-message">
              {t('errors.QUOTA_EXCEEDED_VIDEOS')}
            </p>
          ) : null}
          {studio.videoStartError ? (
            <p role="alert" className="text-sm text-red-700">
              {t(`errors.${studio.videoStartError}`)}
            </p>
          ) : null}
        </form>
      )}
    </section>
  )
}
