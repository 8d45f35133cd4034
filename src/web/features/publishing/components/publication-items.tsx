import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import {
  type PublicationItemView,
  type PublicationView,
  publicationItemStatuses,
} from '#shared/contracts/publishing.ts'
import { classifyReason, publishFixMessageKeys, rejectionMessageKey } from '#shared/publishing/rejections.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { isResubmittable, rejectionsOf } from '../resubmit-plan.ts'

const statusTone: Record<PublicationItemView['status'], string> = {
  blocked: 'bg-amber-50 text-amber-900 ring-amber-200',
  queued: 'bg-slate-100 text-slate-800 ring-slate-200',
  sent: 'bg-sky-50 text-sky-900 ring-sky-200',
  pending: 'bg-sky-50 text-sky-900 ring-sky-200',
  live: 'bg-emerald-50 text-emerald-900 ring-emerald-200',
  rejected: 'bg-red-50 text-red-800 ring-red-200',
  failed: 'bg-red-50 text-red-800 ring-red-200',
}

/** The products of a publication counted by status ("3 live · 1 rejected"), the empty ones left out. */
export function StatusCounts(props: { counts: PublicationView['counts'] }) {
  const { t, formatNumber } = useI18n()
  const shown = publicationItemStatuses.filter((status) => props.counts[status] > 0)
  return (
    <ul className="flex flex-wrap gap-2" aria-label={t('publishing.status.countsLabel')}>
      {shown.map((status) => (
        <li
          key={status}
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${statusTone[status]}`}
          data-testid={`count-${status}`}
        >
          {t('publishing.status.count', {
            count: formatNumber(props.counts[status]),
            status: t(`publishing.panel.statuses.${status}`),
          })}
        </li>
      ))}
    </ul>
  )
}

/**
 * A publication's products, each with its status, every reason in the seller's words beside the
 * marketplace's own, and the fix each names; "Fix and resubmit" beside each refused product and
 * above them all when `onFix` is given.
 */
export function PublicationItems(props: {
  publication: PublicationView
  onFix?: ((items: PublicationItemView[], isAll: boolean) => void) | undefined
}) {
  const { t } = useI18n()
  const { publication, onFix } = props
  const marketplace = t(`settings.integrations.${publication.marketplace}.name`)
  const refused = publication.items.filter(isResubmittable)
  return (
    <div className="space-y-3">
      {onFix && refused.length > 0 ? (
        <button
          type="button"
          className={buttonClasses('primary', 'md', 'w-full sm:w-auto')}
          onClick={() => onFix(refused, true)}
          data-testid="resubmit-all"
        >
          {t('publishing.resubmit.all', { count: refused.length })}
        </button>
      ) : null}
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
        {publication.items.map((item) => (
          <ItemRow
            key={item.id}
            item={item}
            marketplace={marketplace}
            marketplaceId={publication.marketplace}
            onFix={onFix && isResubmittable(item) ? () => onFix([item], false) : undefined}
          />
        ))}
      </ul>
    </div>
  )
}

/** One product: its status, the storefront link once live, each reason with its fix. */
export function ItemRow(props: {
  item: PublicationItemView
  marketplace: string
  marketplaceId: IntegrationMarketplace
  onFix?: (() => void) | undefined
}) {
  const { t } = useI18n()
  const { item } = props
  const rejections = rejectionsOf(item, props.marketplaceId)
  const name = item.title || item.barcode
  return (
    <li className="space-y-2 p-3" data-testid="publication-item">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="min-w-0 text-sm font-medium break-words text-slate-900">
          {name} <span className="text-slate-500">({item.barcode})</span>
        </span>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${statusTone[item.status]}`}
          data-testid="publication-item-status"
        >
          {t(`publishing.panel.statuses.${item.status}`)}
        </span>
      </div>
      {item.productUrl && item.status === 'live' ? (
        <a
          href={item.productUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-block text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
        >
          {t('publishing.panel.viewOn', { marketplace: props.marketplace })}{' '}
          <span className="sr-only">{t('publishing.status.newTab')}</span>
        </a>
      ) : null}
      {item.video ? (
        <p className="text-sm text-slate-700" data-testid="publication-item-video">
          {t(`publishing.panel.videoStatuses.${item.video.status}`, { marketplace: props.marketplace })}
          {item.video.status === 'failed' && item.video.reasons.length > 0 ? (
            <span className="block text-xs break-words text-slate-600">
              {t(rejectionMessageKey(classifyReason(props.marketplaceId, item.video.reasons[0] ?? '').code))}{' '}
              {t('publishing.rejections.marketplaceSaid', {
                marketplace: props.marketplace,
                text: item.video.reasons.join(' · '),
              })}
            </span>
          ) : null}
        </p>
      ) : null}
      {rejections.length > 0 ? (
        <ul className="space-y-2">
          {rejections.map((rejection, index) => (
            <li
              // A product may be refused twice for the same words; their place tells them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is rebuilt whole, never reordered
              key={`${index}:${rejection.code}`}
              className="text-sm text-slate-800"
            >
              <p>{t(rejectionMessageKey(rejection.code))}</p>
              {rejection.attribute ? (
                <p className="text-xs text-slate-700">
                  {t('publishing.rejections.attribute', { attribute: rejection.attribute })}
                </p>
              ) : null}
              {item.reasons.includes(rejection.text) ? (
                <p className="text-xs break-words text-slate-600">
                  {t('publishing.rejections.marketplaceSaid', {
                    marketplace: props.marketplace,
                    text: rejection.text,
                  })}
                </p>
              ) : null}
              {rejection.fix ? (
                <p className="text-xs text-slate-700">
                  <span className="font-semibold">{t(publishFixMessageKeys(rejection.fix).label)}:</span>{' '}
                  {t(publishFixMessageKeys(rejection.fix).does)}
                </p>
              ) : (
                <p className="text-xs text-slate-600">{t('publishing.resubmit.noFix')}</p>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {props.onFix ? (
        <button
          type="button"
          className={buttonClasses('secondary', 'md', 'w-full sm:w-auto')}
          onClick={props.onFix}
          aria-label={t('publishing.resubmit.oneNamed', { product: name })}
          data-testid="resubmit-one"
        >
          {t('publishing.resubmit.one')}
        </button>
      ) : null}
    </li>
  )
}
