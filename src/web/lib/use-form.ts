import { type ChangeEvent, type FormEvent, type RefObject, useEffect, useRef, useState } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import type { FieldReason } from '#shared/validation.ts'
import { ApiError } from './api-client.ts'
import { errorMessageKey } from './error-message.ts'
import { useI18n } from './i18n.tsx'
import { useHydrated } from './use-hydrated.ts'

/** A form's values by the field's name: text, or a boolean for a switch or a checkbox. */
export type FormValues = Record<string, string | boolean>

/** The fields of a form that hold text (the ones `input` can give to an input, select or textarea). */
export type TextField<Values extends FormValues> = {
  [Name in keyof Values & string]: Values[Name] extends string ? Name : never
}[keyof Values & string]

/** Why fields were refused: a reason for each field that is wrong, in the form's own terms. */
export type FieldErrors<Field extends string, Reason extends string> = Partial<Record<Field, Reason>>

/** idle: being filled in; sending: the action runs; sent: the action succeeded (until `reset`). */
export type FormStatus = 'idle' | 'sending' | 'sent'

export type FormOptions<Values extends FormValues, Reason extends string> = {
  initialValues: Values
  /** Client checks before sending: a reason for each wrong field (undefined for the right ones). */
  validate?: (values: Values) => Partial<Record<keyof Values & string, Reason | undefined>>
  /**
   * The text shown under a field for a reason, so each form keeps its own messages; by default
   * the shared reason's message (`errors.field.<reason>`).
   */
  describe?: (reason: Reason, field: keyof Values & string) => string
  /** Sends the values. Throwing shows the error on the fields or above the form. */
  action: (values: Values) => Promise<unknown>
  /** While false, submitting does nothing (for a form whose button is disabled until then). */
  canSubmit?: (values: Values) => boolean
  /**
   * A form sent again and again (the studio's Generate): after the action succeeds it is idle
   * again, not sent, so the next send needs no `reset`. By default it stays sent.
   */
  repeatable?: boolean
  /**
   * The field of a VALIDATION_FAILED answer (`details.fields`) each form field stands for; by
   * default the same name for every field. `{}` puts none of them on fields.
   */
  serverFields?: Partial<Record<keyof Values & string, string>>
  /** A server's reason in the form's terms (e.g. a new password's tooShort as the form's own length message). */
  serverReason?: (reason: FieldReason, field: keyof Values & string) => Reason
  /** Errors of other codes that belong to a field, e.g. a wrong current password. */
  fieldErrorsFor?: (error: unknown) => FieldErrors<keyof Values & string, Reason> | null
  /** The message key above the form for a failed send; by default the error code's own message. */
  formErrorKey?: (error: unknown) => TKey
  /**
   * Where focus goes after a failed send that marks no field; by default it stays in the form
   * (back on the submit button if it was lost while the button was disabled).
   */
  focusAfterError?: (form: HTMLFormElement) => void
}

/** What an input needs from the form: its name, value and change handler. */
export type FieldInputProps = {
  name: string
  value: string
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => void
}

/**
 * Spread on the <form>: its ref, noValidate (the form checks itself) and onSubmit; and `inert`
 * while a prerendered page hydrates, so nothing can be typed into it that React would then
 * drop, and it cannot be sent the browser's way (a GET with every field, passwords too, in the URL).
 */
export type FormElementProps = {
  ref: RefObject<HTMLFormElement | null>
  noValidate: true
  inert: boolean
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
}

export type Form<Values extends FormValues, Reason extends string> = {
  values: Values
  /** Changes one value and clears that field's error. */
  setValue: <Name extends keyof Values & string>(name: Name, value: Values[Name]) => void
  /** name, value and onChange for a plain input, select or textarea (a text field's). */
  input: (name: TextField<Values>) => FieldInputProps
  errors: FieldErrors<keyof Values & string, Reason>
  /** The described error of a field, for FormField's `error`. */
  errorText: (name: keyof Values & string) => string | undefined
  /** The translated message above the form after a failed send, or null. */
  formError: string | null
  /** The code of the error behind `formError` (an ApiError's code), or null. */
  formErrorCode: string | null
  clearFormError: () => void
  status: FormStatus
  /** Sending, or sent: the submit button stays busy until the form is left or reset. */
  isBusy: boolean
  /** Back to the initial values, no errors, idle. */
  reset: () => void
  /** Spread on the <form> (see FormElementProps). */
  formProps: FormElementProps
}

type FocusRequest = { target: 'invalid' | 'afterError'; attempt: number }

/**
 * One form's values, client checks, sending, and errors from the server: field errors from a
 * VALIDATION_FAILED answer on the form's fields, anything else as one message above the form.
 * After a refused attempt the first invalid field in DOM order takes focus; this happens in an
 * effect of the render that drew the marks, so it never runs before them (a timer or an animation
 * frame can).
 */
export function useForm<Values extends FormValues, Reason extends string = FieldReason>(
  options: FormOptions<Values, Reason>,
): Form<Values, Reason> {
  type Field = keyof Values & string
  const { t } = useI18n()
  const formRef = useRef<HTMLFormElement>(null)
  const isHydrated = useHydrated()
  const [values, setValues] = useState<Values>(options.initialValues)
  const [errors, setErrors] = useState<FieldErrors<Field, Reason>>({})
  const [failure, setFailure] = useState<{ key: TKey; code: string | null } | null>(null)
  const [status, setStatus] = useState<FormStatus>('idle')
  // The state above is what the last render saw; a second submit in the same tick needs the truth.
  const statusRef = useRef<FormStatus>('idle')
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null)
  const focusAfterErrorRef = useRef(options.focusAfterError)
  focusAfterErrorRef.current = options.focusAfterError

  // Keyed on the attempt, so a refusal with the same marks as the last one still moves focus.
  useEffect(() => {
    const form = formRef.current
    if (!focusRequest || !form) return
    if (focusRequest.target === 'invalid') {
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
    } else if (focusAfterErrorRef.current) {
      focusAfterErrorRef.current(form)
    } else if (!form.contains(document.activeElement)) {
      form.querySelector<HTMLElement>('button[type="submit"]')?.focus()
    }
  }, [focusRequest])

  function changeStatus(next: FormStatus) {
    statusRef.current = next
    setStatus(next)
  }

  function requestFocus(target: FocusRequest['target']) {
    setFocusRequest((last) => ({ target, attempt: (last?.attempt ?? 0) + 1 }))
  }

  function setValue<Name extends Field>(name: Name, value: Values[Name]) {
    setValues((current) => ({ ...current, [name]: value }))
    setErrors((current) => {
      if (current[name] === undefined) return current
      const { [name]: _cleared, ...rest } = current
      return rest as FieldErrors<Field, Reason>
    })
  }

  function serverFieldErrors(error: unknown): FieldErrors<Field, Reason> | null {
    const fromCode = options.fieldErrorsFor?.(error)
    if (fromCode && hasErrors(fromCode)) return fromCode
    if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED' || !error.details?.fields)
      return null
    const sent = error.details.fields
    const found: FieldErrors<Field, Reason> = {}
    for (const field of Object.keys(options.initialValues) as Field[]) {
      const serverName = options.serverFields ? options.serverFields[field] : field
      const reason = serverName === undefined ? undefined : (sent[serverName] as FieldReason | undefined)
      if (reason === undefined) continue
      found[field] = options.serverReason ? options.serverReason(reason, field) : (reason as Reason)
    }
    return hasErrors(found) ? found : null
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (statusRef.current !== 'idle') return
    if (options.canSubmit && !options.canSubmit(values)) return
    setFailure(null)
    const refused = compactErrors(options.validate?.(values) ?? {})
    setErrors(refused)
    if (hasErrors(refused)) {
      requestFocus('invalid')
      return
    }
    changeStatus('sending')
    try {
      await options.action(values)
      changeStatus(options.repeatable ? 'idle' : 'sent')
    } catch (error) {
      changeStatus('idle')
      const onFields = serverFieldErrors(error)
      if (onFields) {
        setErrors(onFields)
        requestFocus('invalid')
        return
      }
      setFailure({
        key: (options.formErrorKey ?? errorMessageKey)(error),
        code: error instanceof ApiError ? error.code : null,
      })
      requestFocus('afterError')
    }
  }

  return {
    values,
    setValue,
    input: (name) => ({
      name,
      // Every field has a value: the names come from the form's own values, and this one is text.
      value: values[name] as string,
      onChange: (event) => setValue(name, event.target.value as Values[typeof name]),
    }),
    errors,
    errorText: (name) => {
      const reason = errors[name]
      if (reason === undefined) return undefined
      return options.describe ? options.describe(reason, name) : t(`errors.field.${reason as FieldReason}`)
    },
    formError: failure ? t(failure.key) : null,
    formErrorCode: failure?.code ?? null,
    clearFormError: () => setFailure(null),
    status,
    isBusy: status !== 'idle',
    reset: () => {
      setValues(options.initialValues)
      setErrors({})
      setFailure(null)
      changeStatus('idle')
    },
    formProps: {
      ref: formRef,
      noValidate: true,
      inert: !isHydrated,
      onSubmit: (event) => void handleSubmit(event),
    },
  }
}

/** Drops the fields without a reason, so an empty object means "valid". */
function compactErrors<Field extends string, Reason extends string>(
  errors: Partial<Record<Field, Reason | undefined>>,
): FieldErrors<Field, Reason> {
  return Object.fromEntries(
    Object.entries(errors).filter(([, reason]) => reason !== undefined),
  ) as FieldErrors<Field, Reason>
}

function hasErrors(errors: Partial<Record<string, unknown>>): boolean {
  return Object.values(errors).some((reason) => reason !== undefined)
}
