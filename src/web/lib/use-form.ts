import { type ChangeEvent, type FormEvent, type RefObject, useEffect, useRef, useState } from 'react'
import type { ErrorDetails } from '#shared/errors.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import type { FieldReason } from '#shared/validation.ts'
import { ApiError } from './api-client.ts'
import { errorMessageKey } from './error-message.ts'
import { useI18n } from './i18n.tsx'
import { useHydrated } from './use-hydrated.ts'

/** One field's value: text, a boolean for a switch or a checkbox, or a file input's file (null for none). */
export type FieldValue = string | boolean | File | null

/** A form's values by the field's name. */
export type FormValues = Record<string, FieldValue>

/** The fields of a form that hold text (the ones `input` can give to an input, select or textarea). */
export type TextField<Values extends FormValues> = {
  [Name in keyof Values & string]: Values[Name] extends string ? Name : never
}[keyof Values & string]

/** A field's reason to be wrong: a string, or an object when its message needs more (e.g. the keyword at fault). */
export type FieldProblem = string | object

/** Why fields were refused: a reason for each field that is wrong, in the form's own terms. */
export type FieldErrors<Field extends string, Reason extends FieldProblem> = Partial<Record<Field, Reason>>

/** idle: being filled in; sending: an action runs; sent: the action succeeded (until `reset`). */
export type FormStatus = 'idle' | 'sending' | 'sent'

/** What a check knows besides the values: whether sending was tried (since the start or a reset). */
export type ValidateContext = { isAttempted: boolean }

export type FormOptions<Values extends FormValues, Reason extends FieldProblem = FieldReason> = {
  initialValues: Values
  /**
   * Client checks: a reason for each wrong field (undefined for the right ones). On a send it is
   * asked with `isAttempted: true`, and any reason refuses the send.
   */
  validate?: (
    values: Values,
    context: ValidateContext,
  ) => Partial<Record<keyof Values & string, Reason | undefined>>
  /**
   * When the checks' reasons are shown. `submit` (the default): those of the last attempt, each
   * until its field changes. `change`: those of the values as they are now, on every change, from
   * the start (a check holds back what waits for an attempt by reading `isAttempted`).
   */
  validateOn?: 'submit' | 'change'
  /**
   * The text shown under a field for a reason, so each form keeps its own messages; by default
   * the shared reason's message (`errors.field.<reason>`).
   */
  describe?: (reason: Reason, field: keyof Values & string) => string
  /**
   * The message above the form for a send the checks refuse, or the form's own reason to refuse
   * one (e.g. nothing left to send): asked on each send with the fields' reasons (empty when they
   * pass); a key refuses the send and shows until the next one. By default a refused send shows
   * only on its fields.
   */
  refusal?: (values: Values, fieldErrors: FieldErrors<keyof Values & string, Reason>) => TKey | null
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
  /**
   * The form field a server's field path falls on, for a form whose field stands for a list the
   * server checks item by item (`features.3`, the fourth line of `features`); null for none. When
   * given, it is asked instead of `serverFields`, and a field keeps the first path's reason.
   */
  serverFieldOf?: (path: string) => (keyof Values & string) | null
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
  /**
   * false: focus stays where it is after a refused attempt or a failed send (for a form in a
   * dialog whose fields the seller is still working through). By default it moves (see above).
   */
  focusOnError?: boolean
  /**
   * A failed send whose errors go on fields also shows its message above the form; by default it
   * shows only on the fields. For a form that does not move focus to them (`focusOnError: false`).
   */
  formErrorWithFieldErrors?: boolean
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

export type Form<Values extends FormValues, Reason extends FieldProblem> = {
  values: Values
  /** Changes one value and clears that field's error. */
  setValue: <Name extends keyof Values & string>(name: Name, value: Values[Name]) => void
  /** name, value and onChange for a plain input, select or textarea (a text field's). */
  input: (name: TextField<Values>) => FieldInputProps
  /** Each wrong field's reason: the checks' (see `validateOn`), and the server's ahead of them. */
  errors: FieldErrors<keyof Values & string, Reason>
  /** The described error of a field, for FormField's `error`. */
  errorText: (name: keyof Values & string) => string | undefined
  /** The translated message above the form after a failed send, or null. */
  formError: string | null
  /** The code of the error behind `formError` (an ApiError's code), or null. */
  formErrorCode: string | null
  /** The details of the error behind `formError` (an ApiError's, e.g. the line of a file), or null. */
  formErrorDetails: ErrorDetails | null
  clearFormError: () => void
  status: FormStatus
  /** Sending, or sent: the submit button stays busy until the form is left or reset. */
  isBusy: boolean
  /** A send was tried since the start or the last reset (whether or not the checks let it go). */
  isAttempted: boolean
  /** The action running now: `submit` for the form's own, else the name given to `run`; or null. */
  activeAction: string | null
  /**
   * Runs another action of the form (e.g. going back to a saved version) under the same busy
   * state: it does nothing while the form is busy, and blocks sending while it runs. It clears
   * the message above the form first; its failure shows as a failed send's would. With `sends`,
   * the task is another way to send the form (e.g. only part of it): once it succeeds the form
   * is sent, as after its own action; by default it is idle again.
   */
  run: (name: string, task: (values: Values) => Promise<unknown>, options?: RunOptions) => Promise<void>
  /** Back to the initial values, no errors, idle. */
  reset: () => void
  /** As `reset`, from other values: the form's new start (e.g. what the server now holds). */
  resetTo: (values: Values) => void
  /** Spread on the <form> (see FormElementProps). */
  formProps: FormElementProps
}

export type RunOptions = { sends?: boolean }

type Failure = { key: TKey; code: string | null; details: ErrorDetails | null }

type FocusRequest = { target: 'invalid' | 'afterError'; attempt: number }

/**
 * One form's values, client checks, sending, and errors from the server: field errors from a
 * VALIDATION_FAILED answer on the form's fields, anything else as one message above the form.
 * After a refused attempt the first invalid field in DOM order takes focus; this happens in an
 * effect of the render that drew the marks, so it never runs before them (a timer or an animation
 * frame can).
 */
export function useForm<Values extends FormValues, Reason extends FieldProblem = FieldReason>(
  options: FormOptions<Values, Reason>,
): Form<Values, Reason> {
  type Field = keyof Values & string
  const { t } = useI18n()
  const formRef = useRef<HTMLFormElement>(null)
  const isHydrated = useHydrated()
  const [values, setValues] = useState<Values>(options.initialValues)
  // On `validateOn: 'change'` only the server's: the checks' are worked out on each render.
  const [errors, setErrors] = useState<FieldErrors<Field, Reason>>({})
  const [failure, setFailure] = useState<Failure | null>(null)
  const [status, setStatus] = useState<FormStatus>('idle')
  const [activeAction, setActiveAction] = useState<string | null>(null)
  const [isAttempted, setAttempted] = useState(false)
  // The state above is what the last render saw; a second submit in the same tick needs the truth.
  const statusRef = useRef<FormStatus>('idle')
  const isLive = options.validateOn === 'change'
  const shownErrors: FieldErrors<Field, Reason> = isLive
    ? { ...compactErrors(options.validate?.(values, { isAttempted }) ?? {}), ...errors }
    : errors
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
    if (options.focusOnError === false) return
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
    if (options.serverFieldOf) {
      for (const [path, reason] of Object.entries(sent)) {
        const field = options.serverFieldOf(path)
        if (field === null || found[field] !== undefined) continue
        found[field] = options.serverReason
          ? options.serverReason(reason as FieldReason, field)
          : (reason as Reason)
      }
      return hasErrors(found) ? found : null
    }
    for (const field of Object.keys(options.initialValues) as Field[]) {
      const serverName = options.serverFields ? options.serverFields[field] : field
      const reason = serverName === undefined ? undefined : (sent[serverName] as FieldReason | undefined)
      if (reason === undefined) continue
      found[field] = options.serverReason ? options.serverReason(reason, field) : (reason as Reason)
    }
    return hasErrors(found) ? found : null
  }

  /** Shows why an action failed: on the fields it names, else (or also) above the form. */
  function showFailure(error: unknown) {
    const onFields = serverFieldErrors(error)
    if (onFields) setErrors(onFields)
    if (!onFields || options.formErrorWithFieldErrors) {
      setFailure({
        key: (options.formErrorKey ?? errorMessageKey)(error),
        code: error instanceof ApiError ? error.code : null,
        details: (error instanceof ApiError ? error.details : null) ?? null,
      })
    }
    requestFocus(onFields ? 'invalid' : 'afterError')
  }

  /** After an action succeeded: sent, or idle again for a repeatable form. */
  function finishSend() {
    changeStatus(options.repeatable ? 'idle' : 'sent')
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (statusRef.current !== 'idle') return
    if (options.canSubmit && !options.canSubmit(values)) return
    setFailure(null)
    setAttempted(true)
    const refused = compactErrors(options.validate?.(values, { isAttempted: true }) ?? {})
    // Live checks show themselves; what is kept is the server's, until the next answer.
    if (!isLive) setErrors(refused)
    const refusalKey = options.refusal?.(values, refused) ?? null
    if (refusalKey) setFailure({ key: refusalKey, code: null, details: null })
    if (hasErrors(refused) || refusalKey) {
      requestFocus(hasErrors(refused) ? 'invalid' : 'afterError')
      return
    }
    if (isLive) setErrors({})
    changeStatus('sending')
    setActiveAction('submit')
    try {
      await options.action(values)
      finishSend()
    } catch (error) {
      changeStatus('idle')
      showFailure(error)
    } finally {
      setActiveAction(null)
    }
  }

  async function run(name: string, task: (values: Values) => Promise<unknown>, runOptions?: RunOptions) {
    if (statusRef.current !== 'idle') return
    setFailure(null)
    changeStatus('sending')
    setActiveAction(name)
    try {
      await task(values)
      if (runOptions?.sends) finishSend()
      else changeStatus('idle')
    } catch (error) {
      changeStatus('idle')
      showFailure(error)
    } finally {
      setActiveAction(null)
    }
  }

  function resetTo(start: Values) {
    setValues(start)
    setErrors({})
    setFailure(null)
    setAttempted(false)
    changeStatus('idle')
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
    errors: shownErrors,
    errorText: (name) => {
      const reason = shownErrors[name]
      if (reason === undefined) return undefined
      return options.describe ? options.describe(reason, name) : t(`errors.field.${reason as FieldReason}`)
    },
    formError: failure ? t(failure.key) : null,
    formErrorCode: failure?.code ?? null,
    formErrorDetails: failure?.details ?? null,
    clearFormError: () => setFailure(null),
    status,
    isBusy: status !== 'idle',
    isAttempted,
    activeAction,
    run,
    reset: () => resetTo(options.initialValues),
    resetTo,
    formProps: {
      ref: formRef,
      noValidate: true,
      inert: !isHydrated,
      onSubmit: (event) => void handleSubmit(event),
    },
  }
}

/** Drops the fields without a reason, so an empty object means "valid". */
function compactErrors<Field extends string, Reason extends FieldProblem>(
  errors: Partial<Record<Field, Reason | undefined>>,
): FieldErrors<Field, Reason> {
  return Object.fromEntries(
    Object.entries(errors).filter(([, reason]) => reason !== undefined),
  ) as FieldErrors<Field, Reason>
}

function hasErrors(errors: Partial<Record<string, unknown>>): boolean {
  return Object.values(errors).some((reason) => reason !== undefined)
}
