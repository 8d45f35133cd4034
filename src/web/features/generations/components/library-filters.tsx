import { Link } from 'react-router'
import type { GenerationMode } from '#shared/contracts/generations.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { BookmarkIcon } from '#web/components/ui/icons.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import type { LibraryFilter } from '../api/generations-api.ts'
import { searchForFilter } from '../library-filter.ts'

const typeChoices: readonly { mode: GenerationMode | undefined; label: TKey }[] = [
  { mode: undefined, label: 'studio.library.all' },
  { mode: 'image', label: 'studio.library.images' },
  { mode: 'video', label: 'studio.library.videos' },
  { mode: 'seo', label: 'studio.library.seo' },
]

/**
 * The type as links (the filter lives in the URL, so it can be shared, reloaded and gone back
 * to) and "Saved" as a toggle that combines with any type.
 */
export function LibraryFilters(props: { filter: LibraryFilter }) {
  const { t } = useI18n()
  const { filter } = props
  const isSaved = Boolean(filter.saved)
  return (
    <nav aria-label={t('studio.library.filters')} className="flex flex-wrap items-center gap-3">
      <ul
        aria-label={t('studio.library.typeFilter')}
        className="inline-flex flex-wrap gap-1 rounded-xl bg-white p-1 shadow-sm ring-1 ring-slate-200"
      >
        {typeChoices.map((choice) => {
          const isCurrent = choice.mode === filter.mode
          return (
            <li key={choice.label}>
              <Link
                to={{ search: searchForFilter({ mode: choice.mode, saved: isSaved }) }}
                aria-current={isCurrent ? 'true' : undefined}
                className={`block rounded-lg px-3 py-1.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
                  isCurrent
                    ? 'bg-brand-700 text-white'
                    : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
                }`}
                data-testid={`filter-${choice.mode ?? 'all'}`}
              >
                {t(choice.label)}
              </Link>
            </li>
          )
        })}
      </ul>
      <Link
        to={{ search: searchForFilter({ mode: filter.mode, saved: !isSaved }) }}
        aria-current={isSaved ? 'true' : undefined}
        className={`inline-flex items-center gap-1.5 rounded-xl px-3 py-2 text-sm font-semibold shadow-sm ring-1 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
          isSaved
            ? 'bg-amber-100 text-amber-950 ring-amber-300'
            : 'bg-white text-slate-700 ring-slate-200 hover:bg-slate-50 hover:text-slate-900'
        }`}
        data-testid="filter-saved"
      >
        <BookmarkIcon className="size-4" filled={isSaved} />
        {t('studio.library.saved')}
      </Link>
    </nav>
  )
}
