import type { ReactNode } from 'react'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { MarketplaceConnections } from './marketplace-connections.tsx'

const comingSoon = ['shopify', 'woocommerce'] as const

const cardClass = 'flex flex-col rounded-2xl border border-slate-200 bg-white p-5'

/** A group of integrations, named by its h3 (`<id>-title`). */
function Subsection(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${props.id}-title`} className="space-y-3">
      <h3 id={`${props.id}-title`} className="text-lg font-semibold text-slate-900">
        {props.title}
      </h3>
      {props.children}
    </section>
  )
}

/**
 * The marketplaces the seller connects (Trendyol, Hepsiburada); then Shopify and WooCommerce,
 * shown honestly as coming soon (nothing to click), and CSV Upload, which is the catalogue's
 * import: its card leads there.
 */
export function IntegrationsPanel() {
  const { t } = useI18n()
  return (
    <section aria-labelledby="settings-integrations-title" className="space-y-6">
      <div>
        <h2 id="settings-integrations-title" className="text-xl font-semibold text-slate-900">
          {t('settings.integrations.title')}
        </h2>
        <p className="mt-1 max-w-2xl text-slate-600">{t('settings.integrations.body')}</p>
      </div>
      <Subsection id="settings-marketplaces" title={t('settings.integrations.marketplacesTitle')}>
        <MarketplaceConnections />
      </Subsection>
      <Subsection id="settings-shops" title={t('settings.integrations.shopsTitle')}>
        <ul className="grid gap-4 md:grid-cols-3">
          {comingSoon.map((id) => (
            <li
              key={id}
              data-testid={`integration-${id}`}
              aria-labelledby={`integration-${id}-name`}
              className={cardClass}
            >
              <div className="flex items-start justify-between gap-2">
                <h4 id={`integration-${id}-name`} className="font-semibold text-slate-900">
                  {t(`settings.integrations.${id}.name`)}
                </h4>
                <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-slate-700">
                  {t('settings.integrations.comingSoon')}
                </span>
              </div>
              <p className="mt-2 text-sm text-slate-600">{t(`settings.integrations.${id}.description`)}</p>
            </li>
          ))}
          <li data-testid="integration-csv" aria-labelledby="integration-csv-name" className={cardClass}>
            <div className="flex items-start justify-between gap-2">
              <h4 id="integration-csv-name" className="font-semibold text-slate-900">
                {t('settings.integrations.csv.name')}
              </h4>
              <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-emerald-900 ring-1 ring-emerald-200 ring-inset">
                {t('settings.integrations.available')}
              </span>
            </div>
            <p className="mt-2 text-sm text-slate-600">{t('settings.integrations.csv.description')}</p>
            <TextLink to={href('catalogue')} className="mt-3 self-start text-sm">
              {t('settings.integrations.csv.open')}
            </TextLink>
          </li>
        </ul>
      </Subsection>
    </section>
  )
}
