import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import type { BatchRowView, BatchView } from '#shared/contracts/catalogue.ts'
import { isErrorCode } from '#shared/errors.ts'
import { Button, ButtonLink, buttonClasses } from '#web/components/ui/button.tsx'
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { formatDateTime } from '#web/lib/format-time.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useAnnouncer } from '#web/lib/use-announcer.ts'
import { batchExportUrl, cancelBatch, deleteDraft, retryBatch } from '../api/catalogue-api.ts'
import { formatEta } from '../format.ts'
import { ProductReview } from './product-review.tsx'
import { BatchStatusBadge, RowStateBadge } from './status-badges.tsx'

const countOrder = ['queued', 'running', 'done', 'failed', 'canceled'] as const
const cardClass = 'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6'

/** "winter-list.csv" → "winter-list-vitrin.zip": the ZIP is named after the list it came from. */
function downloadName(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]+$/, '')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  return `${base || 'catalogue'}-vitrin.zip`
}

/**
 * A batch's page body: where it stands (counts, progress, time left), what can be done
 * (retry failed rows, cancel what has not started, download the ZIP; each disabled with its
 * reason), publishing it to a marketplace once finished (`publish`, which the page composes), and
 * every product row with its picture, state and error.
 */
export function BatchDetails(props: {
  view: BatchView
  onChange: (view: BatchView) => void
  /** Shown once the batch has finished with at least one product done. */
  publish?: ReactNode
}) {
  const { t, locale, formatNumber } = useI18n()
  const navigate = useNavigate()
  const { view } = props
  const { batch, counts } = view
  const [confirm, setConfirm] = useState<'cancel' | 'delete' | null>(null)
  const [isRetrying, setRetrying] = useState(false)
  const [actionError, setActionError] = useState<unknown>(null)
  // The product under review, by id: its row is read from the live view, so it follows the batch.
  const [reviewRowId, setReviewRowId] = useState<string | null>(null)
  const reviewedRow = view.rows.find((row) => row.id === reviewRowId) ?? null
  const [announcement, announce] = useAnnouncer()
  const downloadReasonId = useId()
  const lastStatusRef = useRef(batch.status)

  // Saying when the batch ends, for those who are not looking at the bar.
  useEffect(() => {
    if (lastStatusRef.current === 'running' && batch.status !== 'running') {
      announce(t('catalogue.batch.ended', { done: counts.done, failed: counts.failed }))
    }
    lastStatusRef.current = batch.status
  }, [batch.status, counts.done, counts.failed, announce, t])

  const total = countOrder.reduce((sum, key) => sum + counts[key], 0)
  const settled = counts.done + counts.failed + counts.canceled
  const percent = total > 0 ? Math.round((settled / total) * 100) : 0
  const isDraft = batch.status === 'draft'

  async function handleRetry() {
    setRetrying(true)
    setActionError(null)
    try {
      props.onChange(await retryBatch(batch.id))
      announce(t('catalogue.batch.retried'))
    } catch (error) {
      setActionError(error)
    } finally {
      setRetrying(false)
    }
  }

  async function handleCancel() {
    const next = await cancelBatch(batch.id)
    props.onChange(next)
    setConfirm(null)
    announce(t('catalogue.batch.canceledMessage'))
  }

  async function handleDelete() {
    await deleteDraft(batch.id)
    setConfirm(null)
    navigate(href('catalogue'), { replace: true })
  }

  return (
    <div className="space-y-6">
      <p role="status" aria-live="polite" className="sr-only" data-testid="batch-announcer">
        {announcement}
      </p>
      <section aria-labelledby="batch-summary-title" className={cardClass}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="batch-summary-title" className="text-lg font-semibold text-slate-900">
            {t('catalogue.batch.summaryTitle')}
          </h2>
          <BatchStatusBadge status={batch.status} />
        </div>
        <p className="mt-1 text-sm text-slate-600">
          {t('catalogue.list.created', { date: formatDateTime(locale, batch.createdAt) })}
          {batch.startedAt
            ? ` · ${t('catalogue.batch.started', { date: formatDateTime(locale, batch.startedAt) })}`
            : ''}
          {batch.finishedAt
            ? ` · ${t('catalogue.list.finished', { date: formatDateTime(locale, batch.finishedAt) })}`
            : ''}
        </p>

        {isDraft ? (
          <div className="mt-4 space-y-3">
            <p className="text-slate-700">{t('catalogue.batch.draftBody')}</p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <ButtonLink to={`${href('catalogue')}?${new URLSearchParams({ draft: batch.id })}`}>
                {t('catalogue.batch.continueImport')}
              </ButtonLink>
              <Button variant="secondary" onClick={() => setConfirm('delete')}>
                {t('catalogue.batch.deleteDraft')}
              </Button>
            </div>
          </div>
        ) : (
          <>
            <dl className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="batch-counts">
              {countOrder.map((key) => (
                <div key={key} className="rounded-xl bg-slate-50 px-3 py-2" data-testid={`count-${key}`}>
                  <dt className="text-xs font-medium text-slate-600">{t(`catalogue.rowState.${key}`)}</dt>
                  <dd className="text-2xl font-semibold text-slate-900 tabular-nums">
                    {formatNumber(counts[key])}
                  </dd>
                </div>
              ))}
            </dl>
            <div className="mt-5">
              <div className="flex flex-wrap justify-between gap-2 text-sm">
                <span id="batch-progress-label" className="font-medium text-slate-900">
                  {t('catalogue.batch.progress', { settled, total })}
                </span>
                <span className="text-slate-600" data-testid="batch-eta">
                  {batch.status === 'running'
                    ? view.etaSeconds === null
                      ? t('catalogue.batch.eta.unknown')
                      : formatEta(t, view.etaSeconds)
                    : null}
                </span>
              </div>
              <div
                role="progressbar"
                aria-labelledby="batch-progress-label"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                className="mt-2 h-3 overflow-hidden rounded-full bg-slate-200"
              >
                <div className="h-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
              </div>
            </div>
          </>
        )}
      </section>

      {isDraft ? null : (
        <section aria-labelledby="batch-actions-title" className={cardClass}>
          <h2 id="batch-actions-title" className="sr-only">
            {t('catalogue.batch.actionsTitle')}
          </h2>
          {actionError ? <FormAlert message={t(errorMessageKey(actionError))} /> : null}
          <div className="grid gap-4 sm:grid-cols-3">
            <div>
              {counts.done > 0 ? (
                <a
                  href={batchExportUrl(batch.id, locale)}
                  download={downloadName(batch.fileName)}
                  className={buttonClasses('primary', 'md', 'w-full')}
                  data-testid="download-zip"
                >
                  {t('catalogue.batch.download')}
                </a>
              ) : (
                <Button
                  className="w-full"
                  disabled
                  aria-describedby={downloadReasonId}
                  data-testid="download-zip"
                >
                  {t('catalogue.batch.download')}
                </Button>
              )}
              <p id={downloadReasonId} className="mt-1.5 text-sm text-slate-600">
                {counts.done > 0
                  ? batch.status === 'running'
                    ? t('catalogue.batch.downloadPartial')
                    : t('catalogue.batch.downloadReady')
                  : t('catalogue.batch.downloadNone')}
              </p>
            </div>
            <ActionWithReason
              label={isRetrying ? t('catalogue.batch.retrying') : t('catalogue.batch.retry')}
              reason={counts.failed === 0 ? t('catalogue.batch.retryNone') : null}
              isBusy={isRetrying}
              onClick={() => void handleRetry()}
            />
            <ActionWithReason
              label={t('catalogue.batch.cancel')}
              reason={counts.queued === 0 ? t('catalogue.batch.cancelNone') : null}
              onClick={() => setConfirm('cancel')}
            />
          </div>
        </section>
      )}

      {batch.status === 'finished' && counts.done > 0 ? props.publish : null}

      {view.rows.length > 0 ? (
        <section aria-labelledby="batch-rows-title" className={cardClass}>
          <h2 id="batch-rows-title" className="text-lg font-semibold text-slate-900">
            {t('catalogue.batch.rowsTitle')}
          </h2>
          <ul className="mt-4 divide-y divide-slate-200" data-testid="batch-rows">
            {view.rows.map((row) => (
              <BatchRow key={row.id} row={row} onReview={() => setReviewRowId(row.id)} />
            ))}
          </ul>
        </section>
      ) : null}

      {reviewedRow ? (
        <ProductReview
          batchId={batch.id}
          presetId={batch.presetId}
          outputs={view.outputs}
          row={reviewedRow}
          onChange={props.onChange}
          onCopyEdited={(rowId, isEdited) =>
            props.onChange({
              ...view,
              rows: view.rows.map((row) => (row.id === rowId ? { ...row, isCopyEdited: isEdited } : row)),
            })
          }
          onClose={() => setReviewRowId(null)}
        />
      ) : null}

      {confirm ? (
        <ConfirmDialog
          key={confirm}
          title={t(`catalogue.batch.${confirm}Title`)}
          body={
            <p>
              {confirm === 'cancel'
                ? t('catalogue.batch.cancelBody', { count: counts.queued })
                : t('catalogue.batch.deleteBody')}
            </p>
          }
          confirmLabel={t(`catalogue.batch.${confirm}Confirm`)}
          cancelLabel={t(`catalogue.batch.${confirm}Keep`)}
          busyLabel={t('catalogue.batch.working')}
          tone="danger"
          onConfirm={confirm === 'cancel' ? handleCancel : handleDelete}
          onClose={() => setConfirm(null)}
        />
      ) : null}
    </div>
  )
}

/** A finished output's picture, else the row's own photo. */
function rowPicture(row: BatchRowView): string | null {
  const done = row.outputs.find((output) => output.thumbnail)
  return done?.thumbnail?.url ?? row.photo?.url ?? null
}

/** The first failed output's reason. */
function rowErrorCode(row: BatchRowView): string | null {
  return row.outputs.find((output) => output.status === 'failed' && output.errorCode)?.errorCode ?? null
}

function BatchRow(props: { row: BatchRowView; onReview: () => void }) {
  const { t } = useI18n()
  const { row } = props
  const picture = rowPicture(row)
  const errorCode = row.state === 'failed' ? rowErrorCode(row) : null
  return (
    <li
      className="grid grid-cols-[4rem_minmax(0,1fr)] gap-x-4 gap-y-2 py-3 md:grid-cols-[4rem_minmax(0,1fr)_8rem_minmax(0,1fr)_auto] md:items-center"
      data-testid="batch-row"
      data-sku={row.sku}
    >
      <div className="row-span-3 size-16 overflow-hidden rounded-lg bg-slate-100 md:row-span-1">
        {picture ? (
          <img src={picture} alt="" loading="lazy" decoding="async" className="size-full object-cover" />
        ) : null}
      </div>
      <div className="min-w-0">
        <p className="truncate font-semibold text-slate-900" title={row.name}>
          {row.name}
        </p>
        <p className="truncate text-sm text-slate-600">
          <span className="sr-only">{t('catalogue.fields.sku')}: </span>
          {row.sku}
          <span className="text-slate-500"> · {t('catalogue.preview.lineN', { line: row.line })}</span>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <RowStateBadge state={row.state} />
        {row.isCopyEdited ? (
          <span
            className="rounded-full bg-sky-50 px-2 py-0.5 text-xs font-semibold text-sky-900 ring-1 ring-sky-200 ring-inset"
            data-testid="row-edited"
          >
            {t('catalogue.review.edited')}
          </span>
        ) : null}
      </div>
      <p className="text-sm text-red-800 md:col-start-4" data-testid="row-error">
        {errorCode ? t(isErrorCode(errorCode) ? `errors.${errorCode}` : 'errors.INTERNAL') : null}
      </p>
      <div className="col-start-2 md:col-start-5">
        <Button
          variant="secondary"
          onClick={props.onReview}
          aria-label={t('catalogue.review.openLabel', { name: row.name })}
          className="w-full sm:w-auto"
          data-testid="review-open"
        >
          {t('catalogue.review.open')}
        </Button>
      </div>
    </li>
  )
}

/** A batch action, disabled with its reason under it while there is nothing for it to do. */
function ActionWithReason(props: {
  label: string
  /** Why there is nothing to do, or null when there is. */
  reason: string | null
  isBusy?: boolean
  onClick: () => void
}) {
  const reasonId = useId()
  return (
    <div>
      <Button
        variant="secondary"
        className="w-full"
        onClick={props.onClick}
        disabled={props.reason !== null || props.isBusy === true}
        aria-busy={props.isBusy}
        aria-describedby={props.reason === null ? undefined : reasonId}
      >
        {props.label}
      </Button>
      {props.reason === null ? null : (
        <p id={reasonId} className="mt-1.5 text-sm text-slate-600">
          {props.reason}
        </p>
      )}
    </div>
  )
}
