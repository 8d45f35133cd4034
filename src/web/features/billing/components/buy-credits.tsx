import { useEffect, useId, useRef } from 'react'
import { topUpPacks } from '#shared/plans.ts'
import { Button } from '#web/components/ui/button.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { startTopUpCheckout } from '../api/billing-api.ts'
import { useProviderRedirect } from '../hooks/use-provider-redirect.ts'

/** The card's id: Buy More Credits links elsewhere lead to `/billing#buy-credits`. */
export const buyCreditsId = 'buy-credits'

/**
 * Buy More Credits: the catalogue's top-up packs, each bought on the provider's checkout page.
 * Without checkout (manual billing) the buttons stay disabled with the reason beside them.
 * `focusOnShow` (the page was opened at #buy-credits) focuses the card once shown, which also
 * scrolls it into view: the browser's own jump to the hash happened before the card existed.
 */
export function BuyCredits(props: { hasCheckout: boolean; className?: string; focusOnShow?: boolean }) {
  const { t, formatUsd, formatNumber } = useI18n()
  const reasonId = useId()
  const redirect = useProviderRedirect()
  const sectionRef = useRef<HTMLElement>(null)
  useEffect(() => {
    if (props.focusOnShow) sectionRef.current?.focus()
  }, [props.focusOnShow])
  return (
    <section
      ref={sectionRef}
      id={buyCreditsId}
      tabIndex={-1}
      aria-labelledby="buy-credits-title"
      data-testid="buy-credits"
      className={`scroll-mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm outline-none sm:p-6 ${props.className ?? ''}`}
    >
      <h2 id="buy-credits-title" className="text-lg font-semibold text-slate-900">
        {t('billing.credits.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('billing.credits.body')}</p>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2">
        {topUpPacks.map((pack) => {
          const name = t(`billing.credits.pack.${pack.id}`, { amount: formatNumber(pack.amount) })
          const price = formatUsd(pack.priceUsd)
          const isBusy = redirect.busy === pack.id
          return (
            <li
              key={pack.id}
              data-pack={pack.id}
              className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div>
                <p className="text-base font-semibold text-slate-900">{name}</p>
                <p className="text-sm text-slate-600">{price}</p>
              </div>
              <Button
                variant="primary"
                className="shrink-0"
                aria-label={isBusy ? undefined : t('billing.credits.buyLabel', { pack: name, price })}
                aria-describedby={props.hasCheckout ? undefined : reasonId}
                disabled={!props.hasCheckout || redirect.busy !== null}
                onClick={() => redirect.go(pack.id, () => startTopUpCheckout(pack.id))}
              >
                {isBusy ? <Spinner className="size-4!" /> : null}
                {isBusy ? t('billing.redirecting') : t('billing.credits.buy', { price })}
              </Button>
            </li>
          )
        })}
      </ul>
      {props.hasCheckout ? null : (
        <p id={reasonId} className="mt-3 text-sm text-slate-600" data-testid="buy-credits-unavailable">
          {t('billing.credits.unavailable')}
        </p>
      )}
      {redirect.error ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {redirect.error}
        </p>
      ) : null}
    </section>
  )
}
