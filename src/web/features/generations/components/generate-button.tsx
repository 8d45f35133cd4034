import { Link } from 'react-router'
import type { ErrorCode } from '#shared/errors.ts'
import { Button } from '#web/components/ui/button.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'
import type { ModeQuota } from '../mode-quota.ts'

/** Refusals that buying a pack by hand resolves: their message comes with the way to do it. */
const buyCreditsCodes: ReadonlySet<string> = new Set<ErrorCode>([
  'AUTO_TOPUP_FAILED',
  'AUTO_TOPUP_CAP_REACHED',
  'QUOTA_EXCEEDED_IMAGES',
  'QUOTA_EXCEEDED_VIDEOS',
])

/** Generate, with the reason it cannot run yet (no photo, quota gone, no plan) next to it. */
export function GenerateButton(props: {
  label: string
  quota: ModeQuota
  hasPhoto: boolean
  isBusy: boolean
  isStarting: boolean
  disabled: boolean
  /** Why the last start was refused, as its error code. */
  startError: ErrorCode | 'NETWORK' | null
}) {
  const { t, formatNumber } = useI18n()
  const localized = useLocalizedHref()
  const { quota } = props
  const quotaLine =
    quota.kind === 'unlimited' ? (
      <p className="text-sm text-slate-600">{t('studio.generate.seoUnlimited')}</p>
    ) : quota.kind === 'own-key' ? (
      <p className="text-sm text-slate-600">{t('studio.generate.ownKey')}</p>
    ) : quota.kind === 'no-plan' ? (
      <p className="text-sm text-red-700">
        {t('studio.generate.noPlan')}{' '}
        <Link to={localized(href('pricing'))} className="font-semibold underline underline-offset-4">
          {t('studio.generate.viewPlans')}
        </Link>
      </p>
    ) : quota.kind === 'metered' ? (
      quota.left > 0 ? (
        <p className="text-sm text-slate-600" data-testid="quota-left">
          {t('studio.generate.quotaLeft', {
            left: formatNumber(quota.left),
            quota: formatNumber(quota.quota),
            resource: t(`studio.generate.${quota.resource}`),
          })}
        </p>
      ) : (
        <p className="text-sm font-medium text-red-700" data-testid="quota-message">
          {t(quota.resource === 'images' ? 'errors.QUOTA_EXCEEDED_IMAGES' : 'errors.QUOTA_EXCEEDED_VIDEOS')}{' '}
          <Link to={`${href('billing')}#buy-credits`} className="font-semibold underline underline-offset-4">
            {t('app.alerts.buyMore')}
          </Link>
        </p>
      )
    ) : null

  return (
    <div className="space-y-2">
      <Button type="submit" size="lg" className="w-full" disabled={props.disabled} data-testid="generate">
        {props.isStarting || props.isBusy ? <Spinner className="size-4!" /> : null}
        {props.isStarting
          ? t('studio.generate.starting')
          : props.isBusy
            ? t('studio.generate.working')
            : props.label}
      </Button>
      {!props.hasPhoto ? <p className="text-sm text-slate-600">{t('studio.generate.noFile')}</p> : null}
      {quotaLine}
      {props.startError ? (
        <p role="alert" className="text-sm font-medium text-red-700" data-testid="start-error">
          {t(`errors.${props.startError}`)}
          {buyCreditsCodes.has(props.startError) ? (
            <>
              {' '}
              <Link
                to={`${href('billing')}#buy-credits`}
                className="font-semibold underline underline-offset-4"
              >
                {t('app.alerts.buyMore')}
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}
