import { useId } from 'react'
import { inputClasses } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * The prompt textarea with its pro-tip box and one-click suggestions. A suggestion fills the
 * prompt with its English text (what the model is sent), labelled in the reader's language.
 */
export function PromptField(props: {
  label: string
  placeholder: string
  tip: string
  value: string
  onChange: (value: string) => void
  suggestions: { id: string; label: string; prompt: string }[]
  disabled?: boolean
}) {
  const { t } = useI18n()
  const id = useId()
  const tipId = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        {props.label}
      </label>
      <textarea
        id={id}
        rows={3}
        maxLength={1000}
        value={props.value}
        disabled={props.disabled}
        placeholder={props.placeholder}
        aria-describedby={tipId}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        className={`${inputClasses} mt-2 resize-y`}
      />
      <div
        id={tipId}
        className="mt-2 rounded-xl border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-950"
      >
        <span className="font-semibold">{t('studio.prompt.tipTitle')}: </span>
        {props.tip}
      </div>
      <p
        className="mt-3 text-xs font-semibold tracking-wide text-slate-600 uppercase"
        id={`${id}-suggestions`}
      >
        {t('studio.prompt.suggestions')}
      </p>
      <ul aria-labelledby={`${id}-suggestions`} className="mt-2 flex flex-wrap gap-2">
        {props.suggestions.map((suggestion) => {
          const isActive = props.value.trim() === suggestion.prompt
          return (
            <li key={suggestion.id}>
              <button
                type="button"
                disabled={props.disabled}
                aria-pressed={isActive}
                onClick={() => props.onChange(suggestion.prompt)}
                className={`rounded-full border px-3 py-1.5 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60 ${
                  isActive
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
                }`}
              >
                {suggestion.label}
              </button>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
