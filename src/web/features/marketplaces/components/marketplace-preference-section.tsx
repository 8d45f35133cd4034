import { useId } from 'react'
import { isMarketplaceId } from '#shared/marketplaces/ids.ts'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useMarketplacePreference } from '../hooks/use-marketplace-preference.ts'
import { ProfileSelect } from './profile-select.tsx'

/**
 * Settings: the default marketplace profile a result's panel starts from (or none, to choose on
 * each result). Saved as soon as it changes; the panel on a result saves the same preference.
 */
export function MarketplacePreferenceSection() {
  const { t } = useI18n()
  const id = useId()
  const { preferences, saveState, pending, save } = useMarketplacePreference()

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="max-w-2xl space-y-4"
      data-testid="marketplace-preference"
    >
      <div>
        {/* A section of the Integrations tab, under the tab's own heading. */}
        <h3 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {t('marketplaces.panel.settings.title')}
        </h3>
        <p className="mt-1 text-slate-600">{t('marketplaces.panel.settings.body')}</p>
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
        <LoadState
          resource={preferences}
          loadingLabel={t('marketplaces.panel.settings.loading')}
          errorTitle={t('marketplaces.panel.settings.loadError')}
          retryLabel={t('marketplaces.panel.settings.retry')}
          variant="inline"
        >
          {(data) => (
            <div>
              <ProfileSelect
                id={`${id}-profile`}
                label={t('marketplaces.panel.settings.label')}
                value={pending === undefined ? data.marketplaceProfile : pending}
                empty={{ label: t('marketplaces.panel.settings.none'), isDisabled: false }}
                onChange={(value) => void save(isMarketplaceId(value) ? value : null)}
                testId="marketplace-default"
              />
              <p
                role="status"
                className={`mt-1 min-h-5 text-sm ${saveState === 'failed' ? 'text-red-800' : 'text-slate-600'}`}
                data-testid="marketplace-default-status"
              >
                {saveState === 'saving'
                  ? t('marketplaces.panel.settings.saving')
                  : saveState === 'saved'
                    ? t('marketplaces.panel.settings.saved')
                    : saveState === 'failed'
                      ? t('marketplaces.panel.settings.saveFailed')
                      : ''}
              </p>
            </div>
          )}
        </LoadState>
      </div>
    </section>
  )
}
