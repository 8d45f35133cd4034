import { type InputHTMLAttributes, type ReactNode, useId } from 'react'
import type { FieldInputProps } from '#web/lib/use-form.ts'

/** What a field's control needs to be tied to its label, its descriptions and its error. */
export type FieldControl = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }

/**
 * A labelled form control with its hint, description and error wired up for assistive
 * technology: the one place a field's ids, `aria-describedby` and `aria-invalid` are decided.
 */
export function FormField(props: {
  label: string
  /** A short note beside the label, e.g. "optional". */
  hint?: string | undefined
  /** A line under the control, e.g. a password rule. */
  description?: ReactNode
  error?: string | undefined
  /** Marks the control invalid when the message is elsewhere (e.g. in the form's alert). */
  isInvalid?: boolean
  /** Other elements that describe the control, e.g. that alert; false or undefined for none. */
  describedBy?: string | false | undefined
  className?: string
  children: (control: FieldControl) => ReactNode
}) {
  const id = useId()
  const hintId = `${id}-hint`
  const descriptionId = `${id}-description`
  const errorId = `${id}-error`
  const hasDescription = props.description !== undefined && props.description !== null
  const describedBy = [
    props.hint ? hintId : null,
    hasDescription ? descriptionId : null,
    props.error ? errorId : null,
    props.describedBy || null,
  ]
    .filter(Boolean)
    .join(' ')
  const isInvalid = Boolean(props.error) || props.isInvalid === true
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
          ...(isInvalid ? { 'aria-invalid': true as const } : {}),
        })}
        {hasDescription ? (
          <p id={descriptionId} className="mt-1.5 text-sm text-slate-600">
            {props.description}
          </p>
        ) : null}
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

/** What a bound field needs from a `useForm` form: a field's input props and its error. */
type BoundForm<Name extends string> = {
  input: (name: Name) => FieldInputProps
  errorText: (name: Name) => string | undefined
}

/**
 * A FormField whose control is a plain input bound to one field of a `useForm` form: its value,
 * its changes and its error. Every other prop goes on the input.
 */
export function FormInput<Name extends string>(
  props: {
    form: BoundForm<Name>
    name: Name
    label: string
    hint?: string | undefined
  } & Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'name' | 'value' | 'onChange' | 'id'>,
) {
  const { form, name, label, hint, ...input } = props
  return (
    <FormField label={label} hint={hint} error={form.errorText(name)}>
      {(control) => <input {...control} {...form.input(name)} {...input} className={inputClasses} />}
    </FormField>
  )
}
