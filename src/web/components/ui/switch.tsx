import { useId } from 'react'

/**
 * An on/off switch (button role=switch, aria-checked) with its label and description wired
 * up. The visible "On"/"Off" text means the state is not told by colour alone.
 */
export function Switch(props: {
  label: string
  description: string
  checked: boolean
  onChange: (checked: boolean) => void
  onText: string
  offText: string
  disabled?: boolean
  isBusy?: boolean
  /** Extra text read after the description, e.g. why the switch is disabled. */
  extraDescriptionId?: string
}) {
  const labelId = useId()
  const descriptionId = useId()
  const describedBy = [descriptionId, props.extraDescriptionId].filter(Boolean).join(' ')
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <p id={labelId} className="font-medium text-slate-900">
          {props.label}
        </p>
        <p id={descriptionId} className="mt-1 text-sm text-slate-600">
          {props.description}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <span aria-hidden="true" className="w-10 text-right text-sm font-medium text-slate-700">
          {props.checked ? props.onText : props.offText}
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={props.checked}
          aria-labelledby={labelId}
          aria-describedby={describedBy}
          aria-busy={props.isBusy || undefined}
          disabled={props.disabled || props.isBusy}
          onClick={() => props.onChange(!props.checked)}
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-50 ${
            props.checked ? 'bg-brand-700' : 'bg-slate-400'
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-6 rounded-full bg-white shadow transition-transform ${
              props.checked ? 'translate-x-5' : 'translate-x-0'
            }`}
          />
        </button>
      </div>
    </div>
  )
}
