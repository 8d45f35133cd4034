import { useCallback, useEffect } from 'react'
import type { WebhookDeliveryView } from '#shared/contracts/webhooks.ts'
import { DateTime, DetailList } from '#web/components/ui/detail-list.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { formatDateTime } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useResource } from '#web/lib/use-resource.ts'
import { listWebhookDeliveries } from '../api/webhooks-api.ts'

/** A pending delivery not tried yet is "queued": "Retrying" would claim an attempt that never was. */
type ShownStatus = WebhookDeliveryView['status'] | 'queued'
const shownStatus = (delivery: WebhookDeliveryView): ShownStatus =>
  delivery.status === 'pending' && delivery.attempts === 0 ? 'queued' : delivery.status

const statusTone: Record<ShownStatus, string> = {
  queued: 'bg-slate-100 text-slate-800',
  pending: 'bg-amber-100 text-amber-950',
  succeeded: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
}

/** How often the log looks again while a delivery is queued or being retried. */
const refreshWhilePendingMs = 5000

/**
 * An endpoint's newest deliveries: event, time, status, attempts, the receiver's last status and
 * why it failed, with Resend. A list of cards (readable on phones and by screen readers alike).
 * While any delivery is still pending it loads again every few seconds (not while the tab is
 * hidden), so a test event's outcome shows up without reloading the page.
 */
export function DeliveryLog(props: {
  endpointId: string
  /** Changes when a test or resend was queued, so the log loads again. */
  version: number
  onResend: (delivery: WebhookDeliveryView) => Promise<void>
  canResend: boolean
}) {
  const { t, locale } = useI18n()
  const load = useCallback(
    (signal: AbortSignal) => listWebhookDeliveries(props.endpointId, signal),
    [props.endpointId],
  )
  const resource = useResource(load, { key: `${props.endpointId}:${props.version}` })
  const shown = resource.status === 'ready' ? resource.data : null
  const { reload } = resource
  useEffect(() => {
    if (!shown?.deliveries.some((delivery) => delivery.status === 'pending')) return
    // One look per answer: the next is armed when this one's data arrives.
    let timer: ReturnType<typeof setTimeout>
    const look = () => {
      if (document.hidden) timer = setTimeout(look, refreshWhilePendingMs)
      else reload()
    }
    timer = setTimeout(look, refreshWhilePendingMs)
    return () => clearTimeout(timer)
  }, [shown, reload])

  return (
    <div className="mt-4 border-t border-slate-200 pt-4">
      <h4 className="text-sm font-semibold text-slate-900">{t('webhooks.deliveries.title')}</h4>
      <LoadState
        resource={resource}
        loadingLabel={t('webhooks.deliveries.loading')}
        errorTitle={t('webhooks.error.title')}
        retryLabel={t('webhooks.error.retry')}
      >
        {(data) =>
          data.deliveries.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{t('webhooks.deliveries.empty')}</p>
          ) : (
            <ul className="mt-2 space-y-2" aria-label={t('webhooks.deliveries.title')}>
              {data.deliveries.map((delivery) => (
                <li
                  key={delivery.id}
                  data-testid="webhook-delivery"
                  className="rounded-lg border border-slate-200 p-3 text-sm"
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium text-slate-900">
                      {t(`webhooks.events.${delivery.eventType}`)}
                    </span>
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${statusTone[shownStatus(delivery)]}`}
                    >
                      {t(`webhooks.deliveries.statuses.${shownStatus(delivery)}`)}
                    </span>
                  </div>
                  <DetailList
                    className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-3"
                    items={[
                      { label: t('webhooks.deliveries.time'), value: <DateTime iso={delivery.createdAt} /> },
                      { label: t('webhooks.deliveries.attempts'), value: delivery.attempts },
                      {
                        label: t('webhooks.deliveries.response'),
                        value: delivery.responseStatus ?? t('webhooks.deliveries.noResponse'),
                      },
                    ]}
                  />
                  {delivery.lastError && delivery.status !== 'succeeded' ? (
                    <p className="mt-2 text-slate-700">
                      {t(`webhooks.deliveryErrors.${delivery.lastError}`)}
                    </p>
                  ) : null}
                  {props.canResend ? (
                    <button
                      type="button"
                      onClick={() => void props.onResend(delivery)}
                      aria-label={`${t('webhooks.actions.resend')}: ${t(`webhooks.events.${delivery.eventType}`)}, ${formatDateTime(locale, delivery.createdAt)}`}
                      className="mt-2 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                    >
                      {t('webhooks.actions.resend')}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </LoadState>
    </div>
  )
}
