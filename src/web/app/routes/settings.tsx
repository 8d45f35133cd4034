import { useSearchParams } from 'react-router'
import { Container } from '#web/components/ui/container.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { Tabs } from '#web/components/ui/tabs.tsx'
import { ApiKeysSection } from '#web/features/api-keys/components/api-keys-section.tsx'
import { AddEmailButton } from '#web/features/auth/components/add-email-button.tsx'
import { ManageBillingButton } from '#web/features/billing/components/manage-billing-button.tsx'
import { MarketplacePreferenceSection } from '#web/features/marketplaces/components/marketplace-preference-section.tsx'
import { getSettings } from '#web/features/settings/api/settings-api.ts'
import { ApiSettingsPanel } from '#web/features/settings/components/api-settings-panel.tsx'
import { BillingSettingsPanel } from '#web/features/settings/components/billing-settings-panel.tsx'
import { IntegrationsPanel } from '#web/features/settings/components/integrations-panel.tsx'
import { ProfilePanel } from '#web/features/settings/components/profile-panel.tsx'
import { WebhooksSection } from '#web/features/webhooks/components/webhooks-section.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'
import { useResource } from '#web/lib/use-resource.ts'

const tabIds = ['profile', 'billing', 'api', 'integrations'] as const
type TabId = (typeof tabIds)[number]

function isTabId(value: string | null): value is TabId {
  return value !== null && (tabIds as readonly string[]).includes(value)
}

export function SettingsPage() {
  const { t } = useI18n()
  const session = useSession()
  const [searchParams, setSearchParams] = useSearchParams()
  const settings = useResource(getSettings)
  useDocumentTitle(t('settings.title'))

  const requested = searchParams.get('tab')
  const selected: TabId = isTabId(requested) ? requested : 'profile'

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
  const loadState = {
    resource: settings,
    loadingLabel: t('settings.loading'),
    errorTitle: t('settings.error.title'),
    retryLabel: t('settings.error.retry'),
  }

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
              <ProfilePanel
                user={session.user}
                addEmailAction={(onAdded) => <AddEmailButton variant="secondary" onAdded={onAdded} />}
              />
            ) : null
          ) : selected === 'billing' ? (
            <LoadState {...loadState}>
              {(data) => (
                <BillingSettingsPanel
                  settings={data}
                  onChange={settings.replace}
                  manageBilling={<ManageBillingButton />}
                />
              )}
            </LoadState>
          ) : selected === 'api' ? (
            <div className="space-y-12">
              <LoadState {...loadState}>
                {(data) => <ApiSettingsPanel settings={data} onChange={settings.replace} />}
              </LoadState>
              <ApiKeysSection />
              <WebhooksSection />
            </div>
          ) : (
            <div className="space-y-10">
              <IntegrationsPanel />
              <MarketplacePreferenceSection />
            </div>
          )}
        </Tabs>
      </Container>
    </>
  )
}
