import { type ReactNode, useId } from 'react'
import { autoTopupCapRange, type SettingsResponse } from '#shared/contracts/settings.ts'
import { Button } from '#web/components/ui/button.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSettingToggle } from '../hooks/use-setting-toggle.ts'
import { SettingToggleSection } from './setting-switch.tsx'

/**
 * Billing preferences: Auto Top-up with its monthly cap (stored; effective once payments are
 * live) and Manage Billing. The page passes the Manage Billing button (it belongs to the billing
 * feature); without a payment provider it is shown disabled with the reason.
 */
export function BillingSettingsPanel(props: {
  settings: SettingsResponse
  onChange: (settings: SettingsResponse) => void
  manageBilling?: ReactNode
}) {
  const { t, formatNumber } = useI18n()
  const { settings } = props
  const toggle = useSettingToggle(props.onChange)
  const notLiveId = useId()
  const portalReasonId = useId()
  const capId = useId()
  const capHintId = useId()
  const capValues = Array.from(
    { length: autoTopupCapRange.max - autoTopupCapRange.min + 1 },
    (_, i) => autoTopupCapRange.min + i,
  )

  return (
    <SettingToggleSection
      setting="autoTopupEnabled"
      settings={settings}
      toggle={toggle}
      describedBy={settings.isBillingLive ? null : notLiveId}
      after={
        <div className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
          {settings.isBillingLive && props.manageBilling ? (
            props.manageBilling
          ) : (
            <>
              <Button variant="secondary" disabled aria-describedby={portalReasonId}>
                {t('settings.billing.portalButton')}
              </Button>
              <p id={portalReasonId} className="mt-2 text-sm text-slate-600">
                {t('settings.billing.portalUnavailable')}
              </p>
            </>
          )}
          <TextLink to={href('billing')} className="mt-4 inline-block text-sm">
            {t('settings.billing.seePlan')}
          </TextLink>
        </div>
      }
    >
      {settings.isBillingLive ? null : (
        <p id={notLiveId} className="mt-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
          {t('settings.billing.notLive')}
        </p>
      )}
      {settings.isBillingLive && settings.hasSubscription ? (
        <div className="mt-4">
          {settings.autoTopupMonthlyCap === null ? (
            <p className="text-sm text-slate-600">{t('settings.billing.capNeedsCard')}</p>
          ) : (
            <>
              <label htmlFor={capId} className="block text-sm font-medium text-slate-900">
                {t('settings.billing.capLabel')}
              </label>
              <select
                id={capId}
                aria-describedby={capHintId}
                className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
                value={settings.autoTopupMonthlyCap}
                disabled={toggle.isBusy}
                onChange={(event) => void toggle.save({ autoTopupMonthlyCap: Number(event.target.value) })}
              >
                {capValues.map((value) => (
                  <option key={value} value={value}>
                    {formatNumber(value)}
                  </option>
                ))}
              </select>
              <p id={capHintId} className="mt-1 text-sm text-slate-600">
                {t('settings.billing.capHint')}
              </p>
            </>
          )}
        </div>
      ) : null}
    </SettingToggleSection>
  )
}
