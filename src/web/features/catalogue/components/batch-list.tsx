import { Link } from 'react-router'
import type { BatchSummary } from '#shared/contracts/catalogue.ts'
import { formatDateTime } from '#web/lib/format-time.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { countText } from '../format.ts'
import { BatchStatusBadge } from './status-badges.tsx'

/** Past imports, newest first as the server sends them; each opens its batch page. */
export function BatchList(props: { batches: BatchSummary[] }) {
  const { t, locale } = useI18n()
  if (props.batches.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center">
        <p className="font-semibold text-slate-900">{t('catalogue.list.emptyTitle')}</p>
        <p className="mt-1 text-sm text-slate-600">{t('catalogue.list.emptyBody')}</p>
      </div>
    )
  }
  return (
    <ul
      className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
      data-testid="batch-list"
    >
      {props.batches.map((batch) => (
        <li
          key={batch.id}
          className="relative flex flex-col gap-2 p-4 hover:bg-slate-50 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="min-w-0">
            <Link
              to={href('catalogueBatch', { id: batch.id })}
              className="block truncate font-semibold text-brand-800 underline-offset-4 after:absolute after:inset-0 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2"
            >
              {batch.fileName}
            </Link>
            <p className="mt-1 text-sm text-slate-600">
              {countText(t, batch.productCount, 'catalogue.list.productsOne', 'catalogue.list.productsOther')}
              {' · '}
              {t('catalogue.list.created', { date: formatDateTime(locale, batch.createdAt) })}
              {batch.finishedAt ? (
                <>
                  {' · '}
                  {t('catalogue.list.finished', { date: formatDateTime(locale, batch.finishedAt) })}
                </>
              ) : null}
            </p>
          </div>
          <div className="shrink-0">
            <BatchStatusBadge status={batch.status} />
          </div>
        </li>
      ))}
    </ul>
  )
}
