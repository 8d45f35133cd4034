import { type ReactNode, useId } from 'react'
import { Switch } from '#web/components/ui/switch.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import type { useSettingToggle } from '../hooks/use-setting-toggle.ts'
import { NeedsPlanNotice } from './needs-plan-notice.tsx'

/**
 * A settings section built around one stored switch: its heading; for a seller without a plan,
 * why the switch is disabled (a notice the switch names as its description); the switch in a card
 * with what goes with it (`children`); then any further cards (`after`).
 */
export function SettingToggleSection(props: {
  id: string
  title: string
  hasPlan: boolean
  toggle: ReturnType<typeof useSettingToggle>
  label: string
  description: string
  checked: boolean
  onChange: (checked: boolean) => void
  /** Another element that describes the switch, e.g. why it cannot take effect yet. */
  describedBy?: string | null
  children?: ReactNode
  after?: ReactNode
}) {
  const needsPlanId = useId()
  const describedBy = [props.hasPlan ? null : needsPlanId, props.describedBy ?? null]
    .filter(Boolean)
    .join(' ')
  return (
    <section aria-labelledby={`${props.id}-title`} className="max-w-2xl space-y-6">
      <h2 id={`${props.id}-title`} className="text-xl font-semibold text-slate-900">
        {props.title}
      </h2>
      {props.hasPlan ? null : <NeedsPlanNotice id={needsPlanId} />}
      <div className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
        <SettingSwitch
          toggle={props.toggle}
          label={props.label}
          description={props.description}
          checked={props.checked}
          onChange={props.onChange}
          disabled={!props.hasPlan}
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
      {toggle.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {toggle.error}
        </p>
      ) : null}
      <p role="status" className="mt-3 text-sm text-emerald-800">
        {toggle.status}
      </p>
    </>
  )
}
