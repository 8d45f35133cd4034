import { useEffect, useRef } from 'react'
import type { QuotaShortDetails } from '#shared/contracts/catalogue.ts'
import { Button, ButtonLink } from '#web/components/ui/button.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { countText } from '../format.ts'

/**
 * The server's "not enough quota for the whole batch": how many products fit, what is needed
 * and left, and the two ways on — start only the products that fit, or buy credits. Nothing
 * starts until the user picks one.
 */
export function QuotaShortPanel(props: {
  details: QuotaShortDetails
  total: number
  isStarting: boolean
  onStartFirst: () => void
}) {
  const { t } = useI18n()
  const { details } = props
  const titleRef = useRef<HTMLHeadingElement>(null)

  // Focus moves to the answer, so a keyboard or screen-reader user lands on the choice.
  useEffect(() => {
    titleRef.current?.focus()
  }, [])

  return (
    <section
      aria-labelledby="catalogue-short-title"
      className="rounded-xl border border-orange-300 bg-orange-50 p-4 text-sm text-orange-950"
      data-testid="quota-short"
    >
      <h3 id="catalogue-short-title" ref={titleRef} tabIndex={-1} className="font-semibold outline-none">
        {t('catalogue.quotaShort.title')}
      </h3>
      <p className="mt-1">
        {details.fits > 0
          ? t('catalogue.quotaShort.fits', { fits: details.fits, total: props.total })
          : t('catalogue.quotaShort.none')}
      </p>
      <ul className="mt-2 list-disc pl-5">
        {details.needed.images > 0 ? (
          <li>
            {t('catalogue.quotaShort.images', {
              needed: details.needed.images,
              available: details.available.images,
            })}
          </li>
        ) : null}
        {details.needed.videos > 0 ? (
          <li>
            {t('catalogue.quotaShort.videos', {
              needed: details.needed.videos,
              available: details.available.videos,
            })}
          </li>
        ) : null}
      </ul>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        {details.fits > 0 ? (
          <Button onClick={props.onStartFirst} disabled={props.isStarting} aria-busy={props.isStarting}>
            {countText(
              t,
              details.fits,
              'catalogue.quotaShort.startFirstOne',
              'catalogue.quotaShort.startFirstOther',
            )}
          </Button>
        ) : null}
        <ButtonLink
          to={`${href('billing')}#buy-credits`}
          variant={details.fits > 0 ? 'secondary' : 'primary'}
        >
          {t('catalogue.quotaShort.buy')}
        </ButtonLink>
      </div>
    </section>
  )
}
