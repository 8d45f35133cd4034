import { type ReactNode, useId } from 'react'

/** A labelled form control with its hint and error wired up for assistive technology. */
export function FormField(props: {
  label: string
  hint?: string
  error?: string
  className?: string
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode
}) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [props.hint ? hintId : null, props.error ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className={props.className}>
      <div className="flex flex-wrap items-baseline gap-x-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-900">
          {props.label}
        </label>
        {props.hint ? (
          // Outside the label, so a screen reader says it once (as the description), not twice.
          <span id={hintId} className="text-sm text-slate-500">
            ({props.hint})
          </span>
        ) : null}
      </div>
      <div className="mt-1.5">
        {props.children({
          id,
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          ...(props.error ? { 'aria-invalid': true as const } : {}),
        })}
      </div>
      {props.error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  )
}

/** Shared look of text inputs, selects and textareas. */
export const inputClasses =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 aria-[invalid=true]:border-red-600 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600/40'
