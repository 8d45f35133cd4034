import { ButtonLink } from '#web/components/ui/button.tsx'
import { ImageIcon } from '#web/components/ui/icons.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import type { LibraryFilter } from '../api/generations-api.ts'

/** The id of the empty state's heading, where focus goes when the last item is deleted. */
export const emptyTitleId = 'library-empty-title'

/** Nothing to show: says why (no generations at all, none saved, none of this type) and leads to Create. */
export function LibraryEmpty(props: { filter: LibraryFilter }) {
  const { t } = useI18n()
  const { filter } = props
  const [title, body] = filter.saved
    ? [t('studio.library.emptySavedTitle'), t('studio.library.emptySavedBody')]
    : filter.mode
      ? [t('studio.library.emptyFilteredTitle'), t('studio.library.emptyBody')]
      : [t('studio.library.emptyTitle'), t('studio.library.emptyBody')]
  return (
    <div
      className="mx-auto max-w-xl rounded-3xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center"
      data-testid="library-empty"
    >
      <ImageIcon className="mx-auto size-10 text-brand-600" />
      <h2 id={emptyTitleId} tabIndex={-1} className="mt-4 text-xl font-semibold text-slate-900 outline-none">
        {title}
      </h2>
      <p className="mt-2 text-slate-700">{body}</p>
      <ButtonLink to={href('create')} className="mt-6">
        {t('studio.library.goCreate')}
      </ButtonLink>
    </div>
  )
}

/** Placeholder cards the size of real ones while the first page loads, so nothing jumps after. */
export function LibrarySkeleton(props: { count: number; label: string }) {
  return (
    <div data-testid="library-loading">
      <p role="status" className="sr-only">
        {props.label}
      </p>
      <ul aria-hidden="true" className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
        {Array.from({ length: props.count }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
          <li key={index} className="overflow-hidden rounded-2xl border border-slate-200 bg-white">
            <div className="aspect-square animate-pulse bg-slate-100" />
            {/* The heights of a card's title, badge, date and Delete rows. */}
            <div className="flex flex-col gap-2 p-3 sm:p-4">
              <div className="h-5 w-2/3 animate-pulse rounded bg-slate-100" />
              <div className="h-5 w-1/3 animate-pulse rounded-full bg-slate-100" />
              <div className="h-4 w-1/2 animate-pulse rounded bg-slate-100" />
              <div className="mt-1 h-6 w-16 animate-pulse rounded bg-slate-100" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}
