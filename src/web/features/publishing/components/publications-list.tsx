import { useEffect, useId, useState } from 'react'
import { Link } from 'react-router'
import type { PublicationView } from '#shared/contracts/publishing.ts'
import { isErrorCode } from '#shared/errors.ts'
import { Button, buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { formatDateTime } from '#web/lib/format-time.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useResource } from '#web/lib/use-resource.ts'
import { listPublications } from '../api/publishing-api.ts'
import { StatusCounts } from './publication-items.tsx'
import { isFinalPublication, PublicationStatus } from './publication-status.tsx'

/** How often the list is read again while a publication in it is under way. */
const listFollowMs = 5000

/**
 * The Library's Publications: every publication of the seller, newest first, with where it came
 * from and its products counted by status; each opens to its products with their reasons, fixes
 * and Fix and resubmit.
 */
export function PublicationsList() {
  const { t } = useI18n()
  const list = useResource((signal) => listPublications({}, signal))
  const publications =
    list.status === 'ready'
      ? [...list.data.publications].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      : []
  const isUnderWay = publications.some((publication) => !isFinalPublication(publication))
  const { reload } = list
  useEffect(() => {
    if (!isUnderWay) return
    const timer = setTimeout(reload, listFollowMs)
    return () => clearTimeout(timer)
  }, [isUnderWay, reload])

  if (list.status === 'loading') {
    return <Spinner label={t('publishing.library.loading')} className="text-brand-700" />
  }
  if (list.status === 'error') {
    return (
      <div className="space-y-3">
        <FormAlert message={`${t('publishing.library.error')} ${t(errorMessageKey(list.error))}`} />
        <Button variant="secondary" onClick={reload}>
          {t('publishing.library.retry')}
        </Button>
      </div>
    )
  }
  if (publications.length === 0) {
    return (
      <div
        className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center sm:p-10"
        data-testid="publications-empty"
      >
        <h2 className="text-lg font-semibold text-slate-900">{t('publishing.library.emptyTitle')}</h2>
        <p className="mx-auto mt-2 max-w-prose text-sm text-slate-700">{t('publishing.library.emptyBody')}</p>
        <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={href('create')} className={buttonClasses('primary')}>
            {t('publishing.library.emptyCreate')}
          </Link>
          <Link to={href('catalogue')} className={buttonClasses('secondary')}>
            {t('publishing.library.emptyCatalogue')}
          </Link>
        </div>
      </div>
    )
  }
  return (
    <ul className="space-y-3" aria-label={t('publishing.library.listLabel')} data-testid="publications-list">
      {publications.map((publication) => (
        <PublicationEntry
          key={publication.id}
          publication={publication}
          original={publications.find((other) => other.id === publication.resubmitOf) ?? null}
          onResubmitted={reload}
        />
      ))}
    </ul>
  )
}

function PublicationEntry(props: {
  publication: PublicationView
  original: PublicationView | null
  onResubmitted: () => void
}) {
  const { t, locale, formatNumber } = useI18n()
  const id = useId()
  const { publication } = props
  const [isOpen, setOpen] = useState(false)
  const marketplace = t(`settings.integrations.${publication.marketplace}.name`)
  const date = formatDateTime(locale, publication.createdAt)
  return (
    <li
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="publication-entry"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h2 id={`${id}-title`} className="font-semibold text-slate-900">
            {t('publishing.library.entryTitle', { marketplace, date })}
          </h2>
          <p className="text-sm text-slate-600" data-testid="publication-origin">
            {publication.resubmitOf ? (
              props.original ? (
                t('publishing.library.fromResubmitOf', {
                  date: formatDateTime(locale, props.original.createdAt),
                })
              ) : (
                t('publishing.library.fromResubmit')
              )
            ) : publication.catalogueBatchId ? (
              <TextLink to={href('catalogueBatch', { id: publication.catalogueBatchId })}>
                {t('publishing.library.fromBatch')}
              </TextLink>
            ) : (
              t('publishing.library.fromStudio')
            )}
            {' · '}
            {t(`publishing.publicationStatuses.${publication.status}`)}
          </p>
        </div>
        <button
          type="button"
          className={buttonClasses('secondary', 'md', 'w-full sm:w-auto')}
          aria-expanded={isOpen}
          aria-controls={`${id}-items`}
          aria-describedby={`${id}-title`}
          onClick={() => setOpen((open) => !open)}
          data-testid="publication-toggle"
        >
          {isOpen
            ? t('publishing.library.hideProducts')
            : t('publishing.library.showProducts', { count: formatNumber(publication.items.length) })}
        </button>
      </div>
      {isOpen ? null : (
        <div className="mt-3">
          <StatusCounts counts={publication.counts} />
        </div>
      )}
      {publication.errorCode && !isOpen ? (
        <FormAlert
          className="mt-3"
          message={t(
            isErrorCode(publication.errorCode) ? `errors.${publication.errorCode}` : 'errors.INTERNAL',
          )}
        />
      ) : null}
      <div id={`${id}-items`} hidden={!isOpen} className="mt-4">
        {isOpen ? (
          <PublicationStatus
            id={publication.id}
            initial={publication}
            category={null}
            onResubmitted={props.onResubmitted}
          />
        ) : null}
      </div>
    </li>
  )
}
