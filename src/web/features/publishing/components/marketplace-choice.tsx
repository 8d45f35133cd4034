import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import { inputClasses } from '#web/components/ui/form-field.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'

// Choosing where to publish, as the Publish panel and a batch's Publish section both ask it.

/** No marketplace is connected: say so, with the way to Settings → Integrations. */
export function NotConnectedNote(props: { testId: string }) {
  const { t } = useI18n()
  return (
    <p className="text-sm text-slate-700" data-testid={props.testId}>
      {t('publishing.panel.notConnected')}{' '}
      <TextLink to={`${href('settings')}?tab=integrations`}>{t('publishing.panel.connectLink')}</TextLink>
    </p>
  )
}

/** The connected marketplaces to publish to, labelled. */
export function MarketplaceSelect(props: {
  id: string
  marketplaces: readonly IntegrationMarketplace[]
  value: IntegrationMarketplace | null
  onChange: (marketplace: IntegrationMarketplace) => void
  testId?: string
}) {
  const { t } = useI18n()
  return (
    <div>
      <label htmlFor={props.id} className="block text-sm font-medium text-slate-900">
        {t('publishing.panel.marketplace')}
      </label>
      <select
        id={props.id}
        className={`${inputClasses} mt-1 sm:max-w-xs`}
        value={props.value ?? ''}
        onChange={(event) => props.onChange(event.currentTarget.value as IntegrationMarketplace)}
        data-testid={props.testId}
      >
        {props.marketplaces.map((marketplace) => (
          <option key={marketplace} value={marketplace}>
            {t(`settings.integrations.${marketplace}.name`)}
          </option>
        ))}
      </select>
    </div>
  )
}
