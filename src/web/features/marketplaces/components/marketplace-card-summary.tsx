import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import { CheckIcon, CrossIcon, WarningIcon } from '#web/components/ui/icons.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import type { CardSummary } from '../hooks/use-marketplace-summaries.ts'

/**
 * A library card's checklist summary for the preferred marketplace ("Trendyol · 2 to fix · 1 to
 * check"): a button that opens the result, whose Marketplace panel has the whole checklist. A
 * skeleton while it loads; nothing without a profile or a summary, never a guessed one. Counts
 * carry a shape besides their colour (a cross, a warning mark, a tick).
 */
export function MarketplaceCardSummary(props: {
  profile: MarketplaceId | null
  state: CardSummary
  onOpen: () => void
}) {
  const { t } = useI18n()
  const { profile, state } = props
  if (!profile || state.status === 'none') return null
  const marketplace = t(`marketplaces.profiles.${profile}`)
  if (state.status === 'loading') {
    return (
      <span className="inline-flex items-center gap-1.5" data-testid="marketplace-card-summary-loading">
        <span aria-hidden="true" className="h-5 w-28 max-w-full animate-pulse rounded-full bg-slate-200" />
        <span className="sr-only">{t('marketplaces.card.checking', { marketplace })}</span>
      </span>
    )
  }
  const { pass, warn, fail } = state.summary
  const tone =
    fail > 0
      ? 'bg-red-50 text-red-900 ring-red-200 hover:bg-red-100'
      : warn > 0
        ? 'bg-amber-50 text-amber-900 ring-amber-200 hover:bg-amber-100'
        : 'bg-emerald-50 text-emerald-900 ring-emerald-200 hover:bg-emerald-100'
  return (
    <button
      type="button"
      onClick={props.onOpen}
      aria-label={t('marketplaces.card.label', { marketplace, fail, warn, pass })}
      className={`relative z-10 inline-flex max-w-full flex-wrap items-center gap-x-1.5 gap-y-0.5 rounded-lg px-2 py-1 text-left text-xs font-semibold ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${tone}`}
      data-testid="marketplace-card-summary"
      data-fail={fail}
      data-warn={warn}
      data-pass={pass}
    >
      <span>{marketplace}</span>
      {fail > 0 ? (
        <Count symbol="fail" text={t('marketplaces.card.fail', { count: fail })} className="text-red-800" />
      ) : null}
      {warn > 0 ? (
        <Count symbol="warn" text={t('marketplaces.card.warn', { count: warn })} className="text-amber-800" />
      ) : null}
      {fail === 0 && warn === 0 ? (
        <Count symbol="pass" text={t('marketplaces.card.allPass', { pass })} className="text-emerald-800" />
      ) : null}
    </button>
  )
}

const symbols = {
  fail: CrossIcon,
  warn: WarningIcon,
  pass: CheckIcon,
} as const

function Count(props: { symbol: keyof typeof symbols; text: string; className: string }) {
  const Mark = symbols[props.symbol]
  return (
    <span className={`inline-flex items-center gap-0.5 whitespace-nowrap ${props.className}`}>
      <Mark className="size-3" />
      {props.text}
    </span>
  )
}
