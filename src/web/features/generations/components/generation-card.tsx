import type { ReactNode } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { TrashIcon } from '#web/components/ui/icons.tsx'
import { formatDateTime } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { itemLabel, typeLabel } from '../generation-labels.ts'
import { useLiveGeneration } from '../hooks/use-live-generation.ts'
import { GenerationThumbnail } from './generation-thumbnail.tsx'
import { SavedMark, StatusBadge } from './status-badge.tsx'

/** The id of a card's open button, to move focus there (after a deletion, after "Load more"). */
export function openButtonId(generationId: string): string {
  return `library-open-${generationId}`
}

/**
 * One generation in the library grid. The whole card opens it (the title's button stretches
 * over it); Delete sits above that layer. Unfinished ones follow their job live when `isWatched`.
 */
export function GenerationCard(props: {
  generation: GenerationView
  isWatched: boolean
  onOpen: (generation: GenerationView) => void
  onDelete: (generation: GenerationView) => void
  onSettled: (generation: GenerationView) => void
  /**
   * The marketplace checklist summary under the badges; the page fills it (features stay apart),
   * with the card's live copy of the generation, so a job that finishes here gets its summary.
   */
  marketplaceSummary?: (generation: GenerationView) => ReactNode
}) {
  const { t, locale } = useI18n()
  const generation = useLiveGeneration(props.generation, {
    isWatched: props.isWatched,
    onSettled: props.onSettled,
  })
  const label = itemLabel(t, locale, generation)
  const seoTitle = generation.result?.type === 'seo' ? generation.result.title : null
  return (
    <article
      className="relative flex h-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md"
      data-testid="library-item"
      data-id={generation.id}
      data-mode={generation.mode}
      data-status={generation.status}
    >
      <GenerationThumbnail generation={generation} />
      <div className="flex flex-1 flex-col gap-2 p-3 sm:p-4">
        <h2 className="text-sm leading-snug font-semibold text-slate-900">
          <button
            type="button"
            id={openButtonId(generation.id)}
            onClick={() => props.onOpen(generation)}
            aria-label={t('studio.library.itemStatus', {
              item: label,
              status: t(`studio.library.status.${generation.status}`),
            })}
            className="text-left outline-none after:absolute after:inset-0 after:rounded-2xl after:content-[''] focus-visible:underline focus-visible:after:ring-3 focus-visible:after:ring-brand-700 focus-visible:after:ring-inset"
            data-testid="open-item"
          >
            {typeLabel(t, generation)}
          </button>
        </h2>
        {seoTitle ? <p className="line-clamp-2 text-xs text-slate-700">{seoTitle}</p> : null}
        <div className="flex flex-wrap items-center gap-1.5">
          <StatusBadge status={generation.status} />
          {generation.isSaved ? <SavedMark /> : null}
        </div>
        {props.marketplaceSummary?.(generation)}
        <p className="text-xs text-slate-600">
          <time dateTime={generation.createdAt}>{formatDateTime(locale, generation.createdAt)}</time>
        </p>
        <div className="relative z-10 mt-auto flex pt-1">
          <button
            type="button"
            onClick={() => props.onDelete(generation)}
            aria-label={t('studio.library.deleteItem', { item: label })}
            className="-ml-2 inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs font-semibold text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-700"
            data-testid="delete-item"
          >
            <TrashIcon className="size-3.5" />
            {t('studio.library.delete')}
          </button>
        </div>
      </div>
    </article>
  )
}
