import { useEffect } from 'react'
import { useSearchParams } from 'react-router'
import { Container } from '#web/components/ui/container.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { useSession } from '#web/features/session/session-context.tsx'
import { ApiSettingsPanel } from '#web/features/settings/components/api-settings-panel.tsx'
import { BillingSettingsPanel } from '#web/features/settings/components/billing-settings-panel.tsx'
import { IntegrationsPanel } from '#web/features/settings/components/integrations-panel.tsx'
import { ProfilePanel } from '#web/features/settings/components/profile-panel.tsx'
import { SettingsLoader } from '#web/features/settings/components/settings-loader.tsx'
import { Tabs } from '#web/features/settings/components/tabs.tsx'
import { useSettings } from '#web/features/settings/hooks/use-settings.ts'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

const tabIds = ['profile', 'billing', 'api', 'integrations'] as const
type TabId = (typeof tabIds)[number]

function isTabId(value: string | null): value is TabId {
  return value !== null && (tabIds as readonly string[]).includes(value)
}

export function SettingsPage() {
  const { t } = useI18n()
  const session = useSession()
  const [searchParams, setSearchParams] = useSearchParams()
  const { state, reload, replace } = useSettings()
  useDocumentTitle(t('settings.title'))

  const requested = searchParams.get('tab')
  const selected: TabId = isTabId(requested) ? requested : 'profile'

  const isUnauthorized =
    state.status === 'error' && state.error instanceof ApiError && state.error.code === 'UNAUTHORIZED'
  useEffect(() => {
    if (isUnauthorized) void session.refresh()
  }, [isUnauthorized, session.refresh])

  function handleSelect(tab: TabId) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.set('tab', tab)
        return next
      },
      { replace: true, preventScrollReset: true },
    )
  }

  const tabs = tabIds.map((id) => ({ id, label: t(`settings.tabs.${id}`) }))

  return (
    <>
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <Container className="py-8 sm:py-12">
        <Tabs
          idPrefix="settings"
          label={t('settings.tabs.label')}
          tabs={tabs}
          selected={selected}
          onSelect={handleSelect}
        >
          {selected === 'profile' ? (
            session.status === 'signed-in' ? (
              <ProfilePanel user={session.user} />
            ) : null
          ) : selected === 'billing' ? (
            <SettingsLoader state={state} onRetry={reload}>
              {(settings) => <BillingSettingsPanel settings={settings} onChange={replace} />}
            </SettingsLoader>
          ) : selected === 'api' ? (
            <SettingsLoader state={state} onRetry={reload}>
              {(settings) => <ApiSettingsPanel settings={settings} onChange={replace} />}
            </SettingsLoader>
          ) : (
            <IntegrationsPanel />
          )}
        </Tabs>
      </Container>
    </>
  )
}
