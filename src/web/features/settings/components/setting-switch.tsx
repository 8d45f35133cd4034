import type { ReactNode } from 'react'
import { Switch } from '#web/components/ui/switch.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import type { useSettingToggle } from '../hooks/use-setting-toggle.ts'
import { NeedsPlanNotice } from './needs-plan-notice.tsx'

/**
 * A settings page section: its heading and, for a seller without a plan, why its switches are
 * disabled (the notice's id is what the switch names as its extra description).
 */
export function SettingsSection(props: {
  id: string
  title: string
  needsPlanId: string | null
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`${props.id}-title`} className="max-w-2xl space-y-6">
      <h2 id={`${props.id}-title`} className="text-xl font-semibold text-slate-900">
        {props.title}
      </h2>
      {props.needsPlanId ? <NeedsPlanNotice id={props.needsPlanId} /> : null}
      {props.children}
    </section>
  )
}

/** One stored on/off setting: the switch, then what saving it said (the error, or "Saved."). */
export function SettingSwitch(props: {
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
