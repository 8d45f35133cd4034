import { useId } from 'react'

export type Choice<T extends string> = { value: T; label: string; hint?: string }

/** A radio group drawn as cards: native radios, so arrows, Tab and screen readers just work. */
export function ChoiceGroup<T extends string>(props: {
  legend: string
  name: string
  value: T
  choices: Choice<T>[]
  onChange: (value: T) => void
  disabled?: boolean
  columns?: 2 | 3
}) {
  const id = useId()
  return (
    <fieldset disabled={props.disabled}>
      <legend className="text-sm font-semibold text-slate-900">{props.legend}</legend>
      <div
        className={`mt-2 grid gap-2 ${props.columns === 3 ? 'grid-cols-1 sm:grid-cols-3' : 'grid-cols-2'}`}
      >
        {props.choices.map((choice) => {
          const inputId = `${id}-${choice.value}`
          const isChecked = choice.value === props.value
          return (
            <label
              key={choice.value}
              htmlFor={inputId}
              className={`flex cursor-pointer flex-col rounded-xl border px-3 py-2.5 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700 ${
                isChecked
                  ? 'border-brand-700 bg-brand-50 ring-1 ring-brand-700'
                  : 'border-slate-300 bg-white hover:bg-slate-50'
              }`}
            >
              <input
                id={inputId}
                type="radio"
                name={`${props.name}-${id}`}
                value={choice.value}
                checked={isChecked}
                onChange={() => props.onChange(choice.value)}
                className="sr-only"
              />
              <span className="text-sm font-semibold text-slate-900">{choice.label}</span>
              {choice.hint ? <span className="text-xs text-slate-600">{choice.hint}</span> : null}
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
