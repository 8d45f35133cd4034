import { useState } from 'react'
import type {
  WebhookDeliveryView,
  WebhookEndpointsResponse,
  WebhookEndpointView,
  WebhookEventType,
} from '#shared/contracts/webhooks.ts'
import { ActionOutcome } from '#web/components/ui/action-outcome.tsx'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { ConfirmDialog, confirmText } from '#web/components/ui/confirm-dialog.tsx'
import { CopyButton } from '#web/components/ui/copy-button.tsx'
import { LoadState, loadText } from '#web/components/ui/load-state.tsx'
import { SecretDialog } from '#web/components/ui/secret-dialog.tsx'
import { SettingsCard } from '#web/components/ui/settings-card.tsx'
import { UpsellNotice } from '#web/components/ui/upsell-notice.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useResource } from '#web/lib/use-resource.ts'
import { useSectionDialogs } from '#web/lib/use-section-dialogs.ts'
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  resendWebhookDelivery,
  revealWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from '../api/webhooks-api.ts'
import { AddWebhookDialog } from './add-webhook-dialog.tsx'
import { DeliveryLog } from './delivery-log.tsx'

type Dialog =
  | { kind: 'add' }
  | { kind: 'secret'; secret: string }
  | { kind: 'disable'; endpoint: WebhookEndpointView }
  | { kind: 'delete'; endpoint: WebhookEndpointView }

const smallButton =
  'rounded-lg border px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2'
const neutralButton = `${smallButton} border-slate-300 bg-white text-slate-900 hover:bg-slate-50 focus-visible:outline-brand-700`
const dangerButton = `${smallButton} border-red-300 bg-white text-red-800 hover:bg-red-50 focus-visible:outline-red-700`

/** What a plan without API access would get, and the way to it. */
function Upsell() {
  const { t } = useI18n()
  return (
    <UpsellNotice
      title={t('webhooks.upsell.title')}
      body={t('webhooks.upsell.body')}
      points={[t('webhooks.upsell.events'), t('webhooks.upsell.retries')]}
      upgradeLabel={t('webhooks.upsell.upgrade')}
    />
  )
}

/** One endpoint: URL, state, events, its secret on demand, actions and its delivery log. */
function EndpointCard(props: {
  endpoint: WebhookEndpointView
  hasApiAccess: boolean
  onDisable: () => void
  onDelete: () => void
  onChanged: (endpoint: WebhookEndpointView) => void
  announce: (message: string) => void
  onError: (error: unknown) => void
}) {
  const { t } = useI18n()
  const { endpoint } = props
  const [secret, setSecret] = useState<string | null>(null)
  const [isLogOpen, setIsLogOpen] = useState(false)
  const [version, setVersion] = useState(0)
  const logId = `webhook-log-${endpoint.id}`

  async function run(action: () => Promise<void>) {
    try {
      await action()
    } catch (error) {
      props.onError(error)
    }
  }

  return (
    <li data-testid="webhook-endpoint" className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 break-all font-mono text-sm font-semibold text-slate-900">{endpoint.url}</p>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
            endpoint.isEnabled ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-200 text-slate-700'
          }`}
        >
          {endpoint.isEnabled ? t('webhooks.enabled') : t('webhooks.disabled')}
        </span>
      </div>
      <ul className="mt-2 flex flex-wrap gap-2 text-xs text-slate-700">
        {endpoint.events.map((type: WebhookEventType) => (
          <li key={type} className="rounded bg-slate-100 px-2 py-0.5">
            {t(`webhooks.events.${type}`)}
          </li>
        ))}
      </ul>
      {secret ? (
        <div className="mt-3 space-y-2">
          <p className="text-sm font-medium text-slate-900">{t('webhooks.secretLabel')}</p>
          <code className="block select-all break-all rounded-lg border border-slate-200 bg-slate-50 p-2 font-mono text-xs">
            {secret}
          </code>
          <CopyButton text={secret} what={t('webhooks.copyWhat')} />
        </div>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className={neutralButton}
          aria-expanded={secret !== null}
          onClick={() =>
            run(async () => setSecret(secret ? null : (await revealWebhookSecret(endpoint.id)).secret))
          }
        >
          {secret ? t('webhooks.actions.hideSecret') : t('webhooks.actions.revealSecret')}
        </button>
        {props.hasApiAccess && endpoint.isEnabled ? (
          <button
            type="button"
            className={neutralButton}
            onClick={() =>
              run(async () => {
                await sendTestWebhook(endpoint.id)
                setVersion((v) => v + 1)
                props.announce(t('webhooks.testQueued', { url: endpoint.url }))
              })
            }
          >
            {t('webhooks.actions.sendTest')}
          </button>
        ) : null}
        {endpoint.isEnabled ? (
          <button type="button" className={neutralButton} onClick={props.onDisable}>
            {t('webhooks.actions.disable')}
          </button>
        ) : props.hasApiAccess ? (
          <button
            type="button"
            className={neutralButton}
            onClick={() =>
              run(async () => {
                const { endpoint: updated } = await updateWebhookEndpoint(endpoint.id, { isEnabled: true })
                props.onChanged(updated)
                props.announce(t('webhooks.enabledMessage', { url: endpoint.url }))
              })
            }
          >
            {t('webhooks.actions.enable')}
          </button>
        ) : null}
        <button type="button" className={dangerButton} onClick={props.onDelete}>
          {t('webhooks.actions.delete')}
        </button>
        <button
          type="button"
          className={neutralButton}
          aria-expanded={isLogOpen}
          aria-controls={logId}
          onClick={() => setIsLogOpen(!isLogOpen)}
        >
          {isLogOpen ? t('webhooks.actions.hideDeliveries') : t('webhooks.actions.showDeliveries')}
        </button>
      </div>
      <div id={logId}>
        {isLogOpen ? (
          <DeliveryLog
            endpointId={endpoint.id}
            version={version}
            canResend={props.hasApiAccess && endpoint.isEnabled}
            onResend={(delivery: WebhookDeliveryView) =>
              run(async () => {
                await resendWebhookDelivery(endpoint.id, delivery.id)
                setVersion((v) => v + 1)
                props.announce(t('webhooks.resendQueued'))
              })
            }
          />
        ) : null}
      </div>
    </li>
  )
}

/**
 * Settings → API → Webhooks: Pro lists, adds (the secret shown at once, and again on demand),
 * tests, disables and deletes endpoints (after asking), and reads each one's delivery log with
 * Resend; other plans see what Pro gives, and can still disable or delete what they have.
 */
export function WebhooksSection() {
  const { t } = useI18n()
  const resource = useResource(listWebhookEndpoints)
  const [failure, setFailure] = useState<string | null>(null)
  const { dialog, setDialog, open, message, announce, headingRef, focusAfterDialogRef } =
    useSectionDialogs<Dialog>(() => setFailure(null))

  function replaceEndpoint(endpoint: WebhookEndpointView) {
    resource.update((current) => ({
      ...current,
      endpoints: current.endpoints.map((e) => (e.id === endpoint.id ? endpoint : e)),
    }))
  }

  function showError(error: unknown) {
    setFailure(t(errorMessageKey(error)))
  }

  function body(data: WebhookEndpointsResponse) {
    const isFull = data.endpoints.length >= data.maxEndpoints
    return (
      <div className="space-y-4">
        {data.hasApiAccess ? null : <Upsell />}
        {data.hasApiAccess ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700">
              {t('webhooks.count', { count: data.endpoints.length, max: data.maxEndpoints })}
            </p>
            {isFull ? (
              <p className="text-sm text-slate-700">
                {t('webhooks.limitReached', { max: data.maxEndpoints })}
              </p>
            ) : (
              <button type="button" className={buttonClasses()} onClick={() => open({ kind: 'add' })}>
                {t('webhooks.add')}
              </button>
            )}
          </div>
        ) : null}
        {data.endpoints.length > 0 ? (
          <ul aria-label={t('webhooks.listLabel')} className="space-y-3">
            {data.endpoints.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                hasApiAccess={data.hasApiAccess}
                onDisable={() => open({ kind: 'disable', endpoint })}
                onDelete={() => open({ kind: 'delete', endpoint })}
                onChanged={replaceEndpoint}
                announce={(text) => {
                  setFailure(null)
                  announce(text)
                }}
                onError={showError}
              />
            ))}
          </ul>
        ) : data.hasApiAccess ? (
          <p className="text-sm text-slate-600">{t('webhooks.empty')}</p>
        ) : null}
      </div>
    )
  }

  async function disable(target: WebhookEndpointView) {
    const { endpoint } = await updateWebhookEndpoint(target.id, { isEnabled: false })
    replaceEndpoint(endpoint)
    setDialog(null)
    announce(t('webhooks.disabledMessage', { url: endpoint.url }))
  }

  async function remove(target: WebhookEndpointView) {
    await deleteWebhookEndpoint(target.id)
    resource.update((current) => ({
      ...current,
      endpoints: current.endpoints.filter((e) => e.id !== target.id),
    }))
    // The endpoint's buttons are gone: focus the heading, where the message is read.
    focusAfterDialogRef.current = headingRef.current
    setDialog(null)
    announce(t('webhooks.deletedMessage', { url: target.url }))
  }

  return (
    <SettingsCard id="settings-webhooks" keys="webhooks" headingRef={headingRef}>
      <LoadState resource={resource} {...loadText(t, 'webhooks')}>
        {body}
      </LoadState>
      <ActionOutcome error={failure} status={message} />

      {dialog?.kind === 'add' ? (
        <AddWebhookDialog
          create={createWebhookEndpoint}
          onCreated={(created) => {
            resource.update((current) => ({
              ...current,
              endpoints: [...current.endpoints, created.endpoint],
            }))
            setDialog({ kind: 'secret', secret: created.secret })
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'secret' ? (
        <SecretDialog
          title={t('webhooks.secretDialog.title')}
          description={<p>{t('webhooks.secretDialog.description')}</p>}
          secret={dialog.secret}
          testId="new-webhook-secret"
          copyWhat={t('webhooks.copyWhat')}
          doneLabel={t('webhooks.secretDialog.done')}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'disable' || dialog?.kind === 'delete' ? (
        <ConfirmDialog
          key={dialog.kind}
          {...confirmText(t, dialog.kind === 'disable' ? 'webhooks.disableDialog' : 'webhooks.deleteDialog', {
            url: dialog.endpoint.url,
          })}
          tone="danger"
          onConfirm={() => (dialog.kind === 'disable' ? disable(dialog.endpoint) : remove(dialog.endpoint))}
          onClose={() => setDialog(null)}
          finalFocusRef={focusAfterDialogRef}
        />
      ) : null}
    </SettingsCard>
  )
}
