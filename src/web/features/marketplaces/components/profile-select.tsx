import { type MarketplaceId, marketplaceIds } from '#shared/marketplaces/ids.ts'
import { inputClasses } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * A labelled choice of marketplace profile, first the empty choice when there is one (none, or
 * "choose" while nothing is chosen), then every profile by its name.
 */
export function ProfileSelect(props: {
  id: string
  label: string
  value: MarketplaceId | null
  /** The choice of no profile; `isDisabled` when it only stands for "not chosen yet". */
  empty: { label: string; isDisabled: boolean } | null
  onChange: (value: string) => void
  testId: string
  describedBy?: string
  disabled?: boolean
}) {
  const { t } = useI18n()
  return (
    <>
      <label htmlFor={props.id} className="block text-sm font-medium text-slate-900">
        {props.label}
      </label>
      <select
        id={props.id}
        aria-describedby={props.describedBy}
        className={`${inputClasses} mt-1 sm:max-w-xs`}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        data-testid={props.testId}
      >
        {props.empty ? (
          <option value="" disabled={props.empty.isDisabled}>
            {props.empty.label}
          </option>
        ) : null}
        {marketplaceIds.map((option) => (
          <option key={option} value={option}>
            {t(`marketplaces.profiles.${option}`)}
          </option>
        ))}
      </select>
    </>
  )
}
