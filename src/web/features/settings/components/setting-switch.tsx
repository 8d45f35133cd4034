import { type ReactNode, useId } from 'react'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { ActionOutcome } from '#web/components/ui/action-outcome.tsx'
import { Switch } from '#web/components/ui/switch.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import type { useSettingToggle } from '../hooks/use-setting-toggle.ts'
import { NeedsPlanNotice } from './needs-plan-notice.tsx'

/** The stored switches that head a settings section, with the section's id and words. */
const toggleSections = {
  byoApiEnabled: {
    id: 'settings-api',
    title: 'settings.api.title',
    label: 'settings.api.byoLabel',
    description: 'settings.api.byoDescription',
  },
  autoTopupEnabled: {
    id: 'settings-billing',
    title: 'settings.billing.title',
    label: 'settings.billing.autoTopupLabel',
    description: 'settings.billing.autoTopupDescription',
  },
} as const satisfies Record<string, { id: string; title: TKey; label: TKey; description: TKey }>

type ToggleSetting = keyof typeof toggleSections

/**
 * A settings section built around one stored switch: its heading; for a seller without a plan,
 * why the switch is disabled (a notice the switch names as its description); the switch in a card
 * with what goes with it (`children`); then any further cards (`after`).
 */
export function SettingToggleSection(props: {
  setting: ToggleSetting
  settings: SettingsResponse
  toggle: ReturnType<typeof useSettingToggle>
  /** Another element that describes the switch, e.g. why it cannot take effect yet. */
  describedBy?: string | null
  children?: ReactNode
  after?: ReactNode
}) {
  const { t } = useI18n()
  const { setting, settings } = props
  const { id, title, label, description } = toggleSections[setting]
  const hasPlan = settings.hasSubscription
  const needsPlanId = useId()
  const describedBy = [hasPlan ? null : needsPlanId, props.describedBy ?? null].filter(Boolean).join(' ')
  return (
    <section aria-labelledby={`${id}-title`} className="max-w-2xl space-y-6">
      <h2 id={`${id}-title`} className="text-xl font-semibold text-slate-900">
        {t(title)}
      </h2>
      {hasPlan ? null : <NeedsPlanNotice id={needsPlanId} />}
      <div className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
        <SettingSwitch
          toggle={props.toggle}
          label={t(label)}
          description={t(description)}
          checked={settings[setting]}
          onChange={(checked) => void props.toggle.save({ [setting]: checked })}
          disabled={!hasPlan}
          extraDescriptionId={describedBy || undefined}
        />
        {props.children}
      </div>
      {props.after}
    </section>
  )
}

/** One stored on/off setting: the switch, then what saving it said (the error, or "Saved."). */
function SettingSwitch(props: {
  toggle: ReturnType<typeof useSettingToggle>
  label: string
  description: string
  checked: boolean
  onChange: (checked: boolean) => void
  disabled: boolean
  extraDescriptionId?: string
}) {
  const { t } = useI18n()
  const { toggle } = props
  return (
    <>
      <Switch
        label={props.label}
        description={props.description}
        checked={props.checked}
        onChange={props.onChange}
        onText={t('settings.toggle.on')}
        offText={t('settings.toggle.off')}
        disabled={props.disabled}
        isBusy={toggle.isBusy}
        extraDescriptionId={props.extraDescriptionId}
      />
      <ActionOutcome error={toggle.error} status={toggle.status} className="mt-3" />
    </>
  )
}
