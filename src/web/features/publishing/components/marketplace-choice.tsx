import { type ReactNode, useState } from 'react'
import type { IntegrationMarketplace, IntegrationsResponse } from '#shared/contracts/integrations.ts'
import type { MarketplaceCategory } from '#shared/contracts/publishing.ts'
import { inputClasses } from '#web/components/ui/form-field.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import type { ResourceState } from '#web/lib/use-resource.ts'
import { CategoryFinder } from './category-finder.tsx'

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

/**
 * The marketplace and category being chosen: the first connected marketplace until the seller
 * picks another, and a new marketplace asks for its category again.
 */
export function useMarketplaceChoice(connections: ResourceState<IntegrationsResponse>) {
  const [marketplace, setMarketplace] = useState<IntegrationMarketplace | null>(null)
  const [category, setCategory] = useState<MarketplaceCategory | null>(null)
  const connected =
    connections.status === 'ready'
      ? connections.data.integrations
          .filter((integration) => integration.isConnected)
          .map((integration) => integration.marketplace)
      : []
  return {
    connected,
    chosen: marketplace ?? connected[0] ?? null,
    category,
    setCategory,
    chooseMarketplace: (next: IntegrationMarketplace) => {
      setMarketplace(next)
      setCategory(null)
    },
  }
}

/**
 * Where to publish: the marketplace, then its category found in Turkish words; once both are
 * chosen, `children` draws the listing's form for them.
 */
export function PublishTarget(props: {
  id: string
  choice: ReturnType<typeof useMarketplaceChoice>
  testId?: string
  children: (marketplace: IntegrationMarketplace, category: MarketplaceCategory) => ReactNode
}) {
  const { choice } = props
  return (
    <>
      <MarketplaceSelect
        id={`${props.id}-marketplace`}
        marketplaces={choice.connected}
        value={choice.chosen}
        onChange={choice.chooseMarketplace}
        testId={props.testId}
      />
      {choice.chosen ? (
        choice.category ? (
          props.children(choice.chosen, choice.category)
        ) : (
          <CategoryFinder marketplace={choice.chosen} onChoose={choice.setCategory} />
        )
      ) : null}
    </>
  )
}

/** The form's Publish button: "Publish to Trendyol", or "Publishing…" while it sends. */
export function PublishButton(props: {
  marketplace: IntegrationMarketplace
  isSending: boolean
  className: string
  testId: string
  'aria-busy'?: boolean
}) {
  const { t } = useI18n()
  return (
    <button
      type="submit"
      className={props.className}
      disabled={props.isSending}
      aria-busy={props['aria-busy']}
      data-testid={props.testId}
    >
      {props.isSending
        ? t('publishing.panel.publishing')
        : t('publishing.panel.publish', {
            marketplace: t(`settings.integrations.${props.marketplace}.name`),
          })}
    </button>
  )
}
