import type { ApiKeyView } from '#shared/contracts/api-keys.ts'
import { DateTime, DetailList } from '#web/components/ui/detail-list.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * The keys as cards (one column on phones, details side by side from `sm`): name, status, the
 * first characters, when made, last used or revoked, and Revoke for live keys.
 */
export function ApiKeyList(props: { keys: ApiKeyView[]; onRevoke: (key: ApiKeyView) => void }) {
  const { t } = useI18n()

  return (
    <ul aria-label={t('apiKeys.listLabel')} className="space-y-3">
      {props.keys.map((key) => {
        const isRevoked = key.revokedAt !== null
        return (
          <li
            key={key.id}
            data-testid="api-key"
            className={`rounded-xl border p-4 ${isRevoked ? 'border-slate-200 bg-slate-50' : 'border-slate-200 bg-white'}`}
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="break-words font-semibold text-slate-900">{key.name}</p>
                <p className="mt-1 text-sm">
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                      isRevoked ? 'bg-slate-200 text-slate-700' : 'bg-emerald-100 text-emerald-900'
                    }`}
                  >
                    {isRevoked ? t('apiKeys.revoked') : t('apiKeys.active')}
                  </span>
                </p>
              </div>
              {isRevoked ? null : (
                <button
                  type="button"
                  onClick={() => props.onRevoke(key)}
                  aria-label={t('apiKeys.revokeNamed', { name: key.name })}
                  className="rounded-lg border border-red-300 bg-white px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
                >
                  {t('apiKeys.revoke')}
                </button>
              )}
            </div>
            <DetailList
              className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3"
              valueClassName="text-slate-900"
              items={[
                {
                  label: t('apiKeys.startsWith'),
                  value: <code className="font-mono text-slate-900">{key.prefix}…</code>,
                },
                { label: t('apiKeys.created'), value: <DateTime iso={key.createdAt} /> },
                {
                  label: isRevoked ? t('apiKeys.revokedOn') : t('apiKeys.lastUsed'),
                  value: key.revokedAt ? (
                    <DateTime iso={key.revokedAt} />
                  ) : key.lastUsedAt ? (
                    <DateTime iso={key.lastUsedAt} />
                  ) : (
                    t('apiKeys.neverUsed')
                  ),
                },
              ]}
            />
          </li>
        )
      })}
    </ul>
  )
}
