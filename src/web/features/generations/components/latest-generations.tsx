import { Link } from 'react-router'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { formatDateTime } from '#web/lib/format-time.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { typeLabel } from '../generation-labels.ts'
import { useLibraryList } from '../hooks/use-library-list.ts'
import { useLiveGeneration, watchedIds } from '../hooks/use-live-generation.ts'
import { GenerationThumbnail } from './generation-thumbnail.tsx'
import { StatusBadge } from './status-badge.tsx'

const latestCount = 4

/** The dashboard's latest few generations, each opening in the library; running ones update live. */
export function LatestGenerations() {
  const { t } = useI18n()
  const list = useLibraryList({}, latestCount)
  const watched = watchedIds(list.status === 'ready' ? list.data.items : [], latestCount)
  return (
    <section aria-labelledby="dashboard-latest-title" data-testid="latest-generations">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="dashboard-latest-title" className="text-lg font-semibold text-slate-900">
          {t('studio.library.latestTitle')}
        </h2>
        <TextLink to={href('library')} className="text-sm">
          {t('studio.library.viewAll')}
        </TextLink>
      </div>
      <LoadState
        resource={list}
        loading={
          <div className="mt-4">
            <p role="status" className="sr-only">
              {t('studio.library.loading')}
            </p>
            <ul aria-hidden="true" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              {Array.from({ length: latestCount }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
                <li key={index} className="overflow-hidden rounded-2xl border border-slate-200 bg-white">
                  <div className="aspect-square animate-pulse bg-slate-100" />
                  <div className="h-[4.75rem] p-3">
                    <div className="h-4 w-2/3 animate-pulse rounded bg-slate-100" />
                  </div>
                </li>
              ))}
            </ul>
          </div>
        }
        variant="inline"
        className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 text-slate-700"
        errorTitle={t('studio.library.error')}
        retryLabel={t('studio.library.retry')}
      >
        {(page) =>
          page.items.length === 0 ? (
            <div
              className="mt-4 flex flex-col items-start gap-4 rounded-2xl border border-dashed border-slate-300 bg-white p-5 sm:flex-row sm:items-center sm:justify-between"
              data-testid="latest-empty"
            >
              <p className="text-slate-700">{t('studio.library.latestEmpty')}</p>
              <ButtonLink to={href('create')} variant="secondary">
                {t('studio.library.goCreate')}
              </ButtonLink>
            </div>
          ) : (
            <ul className="mt-4 grid grid-cols-2 gap-4 lg:grid-cols-4">
              {page.items.map((generation) => (
                <li key={generation.id}>
                  <LatestItem
                    generation={generation}
                    isWatched={watched.has(generation.id)}
                    onSettled={list.replace}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </LoadState>
    </section>
  )
}

function LatestItem(props: {
  generation: GenerationView
  isWatched: boolean
  onSettled: (generation: GenerationView) => void
}) {
  const { t, locale } = useI18n()
  const generation = useLiveGeneration(props.generation, {
    isWatched: props.isWatched,
    onSettled: props.onSettled,
  })
  return (
    <Link
      to={`${href('library')}?open=${encodeURIComponent(generation.id)}`}
      className="flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      data-testid="latest-item"
      data-id={generation.id}
      data-status={generation.status}
    >
      <GenerationThumbnail generation={generation} />
      <span className="flex flex-1 flex-col gap-1.5 p-3">
        <span className="text-sm font-semibold text-slate-900">{typeLabel(t, generation)}</span>
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <StatusBadge status={generation.status} />
          <time dateTime={generation.createdAt} className="text-xs text-slate-600">
            {formatDateTime(locale, generation.createdAt)}
          </time>
        </span>
      </span>
    </Link>
  )
}
