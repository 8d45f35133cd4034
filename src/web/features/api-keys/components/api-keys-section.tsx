import { useRef } from 'react'
import type { ApiKeysResponse, ApiKeyView } from '#shared/contracts/api-keys.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { ConfirmDialog, confirmText } from '#web/components/ui/confirm-dialog.tsx'
import { LoadState, loadText } from '#web/components/ui/load-state.tsx'
import { SettingsCard } from '#web/components/ui/settings-card.tsx'
import { UpsellNotice } from '#web/components/ui/upsell-notice.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSectionDialogs } from '#web/lib/use-section-dialogs.ts'
import { useApiKeys } from '../hooks/use-api-keys.ts'
import { ApiKeyList } from './api-key-list.tsx'
import { CreateApiKeyDialog } from './create-api-key-dialog.tsx'
import { SecretKeyDialog } from './secret-key-dialog.tsx'

type Dialog =
  | { kind: 'create' }
  | { kind: 'secret'; name: string; secret: string }
  | { kind: 'revoke'; key: ApiKeyView }

/** What a plan without API access would get, and the way to it; no button that cannot work. */
function Upsell(props: { maxLiveKeys: number }) {
  const { t } = useI18n()
  return (
    <UpsellNotice
      title={t('apiKeys.upsell.title')}
      body={t('apiKeys.upsell.body')}
      points={[
        t('apiKeys.upsell.keys', { max: props.maxLiveKeys }),
        t('apiKeys.upsell.usage'),
        t('apiKeys.upsell.next'),
      ]}
      upgradeLabel={t('apiKeys.upsell.upgrade')}
    />
  )
}

/**
 * Settings → API: the user's keys for the public API. Pro lists, creates (the key shown once)
 * and revokes (after asking); other plans see what Pro gives and the way to it, and can still
 * revoke keys left from a Pro period.
 */
export function ApiKeysSection() {
  const { t } = useI18n()
  const { resource, create, revoke } = useApiKeys()
  const { dialog, setDialog, open, message, announce, headingRef, focusAfterDialogRef } =
    useSectionDialogs<Dialog>()
  const createButtonRef = useRef<HTMLButtonElement>(null)

  async function handleRevoke(key: ApiKeyView) {
    await revoke(key.id)
    // The key's Revoke button is gone: focus the section's heading, where the message is read.
    focusAfterDialogRef.current = headingRef.current
    setDialog(null)
    announce(t('apiKeys.revokedMessage', { name: key.name }))
  }

  function body(data: ApiKeysResponse) {
    const live = data.keys.filter((key) => key.revokedAt === null).length
    const isFull = live >= data.maxLiveKeys
    return (
      <div className="space-y-5">
        {data.hasApiAccess ? null : <Upsell maxLiveKeys={data.maxLiveKeys} />}
        {!data.hasApiAccess && data.keys.length > 0 ? (
          <p className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
            {t('apiKeys.downgraded')}
          </p>
        ) : null}
        {data.hasApiAccess ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700">
              {t('apiKeys.count', { count: live, max: data.maxLiveKeys })}
            </p>
            {isFull ? null : (
              <button
                ref={createButtonRef}
                type="button"
                className={buttonClasses()}
                onClick={() => open({ kind: 'create' })}
              >
                {t('apiKeys.create')}
              </button>
            )}
          </div>
        ) : null}
        {data.hasApiAccess && isFull ? (
          <p className="text-sm text-slate-700">{t('apiKeys.limitReached', { max: data.maxLiveKeys })}</p>
        ) : null}
        {data.keys.length > 0 ? (
          <ApiKeyList keys={data.keys} onRevoke={(key) => open({ kind: 'revoke', key })} />
        ) : data.hasApiAccess ? (
          <p className="text-sm text-slate-600">{t('apiKeys.empty')}</p>
        ) : null}
      </div>
    )
  }

  return (
    <SettingsCard id="settings-api-keys" keys="apiKeys" headingRef={headingRef}>
      {/* Under the tab's "API Settings" heading (api-settings-panel.tsx), beside the fal key. */}
      <LoadState resource={resource} {...loadText(t, 'apiKeys')}>
        {body}
      </LoadState>
      <p role="status" className="text-sm text-emerald-800">
        {message}
      </p>

      {dialog?.kind === 'create' ? (
        <CreateApiKeyDialog
          create={create}
          onCreated={(created) => {
            announce(t('apiKeys.createdMessage', { name: created.key.name }))
            setDialog({ kind: 'secret', name: created.key.name, secret: created.secret })
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'secret' ? (
        <SecretKeyDialog
          name={dialog.name}
          secret={dialog.secret}
          onClose={() => {
            // Back to Create, or to the heading when the list is now full and Create is gone.
            focusAfterDialogRef.current = createButtonRef.current ?? headingRef.current
            setDialog(null)
          }}
          finalFocusRef={focusAfterDialogRef}
        />
      ) : null}
      {dialog?.kind === 'revoke' ? (
        <ConfirmDialog
          {...confirmText(t, 'apiKeys.revokeDialog', { name: dialog.key.name })}
          tone="danger"
          onConfirm={() => handleRevoke(dialog.key)}
          onClose={() => setDialog(null)}
          finalFocusRef={focusAfterDialogRef}
        />
      ) : null}
    </SettingsCard>
  )
}
