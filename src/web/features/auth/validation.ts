import { isCommonPassword } from '#shared/common-passwords.ts'
import { maxPasswordLength, minPasswordLength, signUpRequestSchema } from '#shared/contracts/auth.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import type { FieldReason } from '#shared/validation.ts'
import { ApiError } from '#web/lib/api-client.ts'
import type { I18n } from '#web/lib/i18n.tsx'

export type AuthField = 'email' | 'password' | 'confirmPassword'

/** Why a field of an auth form was refused: the shared reasons plus the seed's two password rules. */
export type AuthFieldError = FieldReason | 'passwordTooShort' | 'passwordMismatch'

export type AuthFieldErrors = Partial<Record<AuthField, AuthFieldError>>

/** Required, then a valid address (the same rule the server applies). */
export function checkEmail(value: string): AuthFieldError | undefined {
  if (value.trim() === '') return 'required'
  return signUpRequestSchema.shape.email.safeParse(value).success ? undefined : 'email'
}

/** A password to sign in with: only required (the server judges it). */
export function checkSignInPassword(value: string): AuthFieldError | undefined {
  if (value === '') return 'required'
  return value.length > maxPasswordLength ? 'tooLong' : undefined
}

/** A new password and its confirmation, with the seed's messages for too short and mismatch. */
export function checkNewPassword(password: string, confirmPassword: string): AuthFieldErrors {
  const errors: AuthFieldErrors = {}
  if (password === '') errors.password = 'required'
  else if (password.length < minPasswordLength) errors.password = 'passwordTooShort'
  else if (password.length > maxPasswordLength) errors.password = 'tooLong'
  else if (isCommonPassword(password)) errors.password = 'tooCommon'
  if (confirmPassword === '') errors.confirmPassword = 'required'
  else if (confirmPassword !== password) errors.confirmPassword = 'passwordMismatch'
  return errors
}

/** Drops the fields without an error, so an empty object means "valid". */
export function compactErrors(errors: AuthFieldErrors): AuthFieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, reason]) => reason !== undefined))
}

export function hasErrors(errors: AuthFieldErrors): boolean {
  return Object.keys(compactErrors(errors)).length > 0
}

/** The text shown under a field for its error. */
export function describeFieldError(t: I18n['t'], reason: AuthFieldError | undefined): string | undefined {
  if (reason === undefined) return undefined
  if (reason === 'passwordTooShort') return t('auth.validation.passwordTooShort', { min: minPasswordLength })
  if (reason === 'passwordMismatch') return t('auth.validation.passwordMismatch')
  return t(`errors.field.${reason}`)
}

/**
 * Field errors the server sent back (VALIDATION_FAILED), limited to the fields this form shows.
 * A password the server finds too short gets the seed's message, like the client check.
 */
export function serverFieldErrors(error: unknown, fields: readonly AuthField[]): AuthFieldErrors | null {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED' || !error.details?.fields)
    return null
  const errors: AuthFieldErrors = {}
  for (const field of fields) {
    const reason = error.details.fields[field] as FieldReason | undefined
    if (reason === undefined) continue
    errors[field] = field === 'password' && reason === 'tooShort' ? 'passwordTooShort' : reason
  }
  return hasErrors(errors) ? errors : null
}

/** The translated message for a failed call: the error code's own text, or a generic one. */
export function errorMessageKey(error: unknown): TKey {
  return error instanceof ApiError ? `errors.${error.code}` : 'errors.INTERNAL'
}

/** Moves focus to the first field marked invalid inside `root`, after React has rendered the marks. */
export function focusFirstInvalid(root: HTMLElement | null) {
  requestAnimationFrame(() => root?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
}

/**
 * After a failed send, puts focus back on the submit button if it was lost while the button was
 * disabled, so keyboard users carry on from where they were.
 */
export function keepFocusInForm(form: HTMLFormElement | null) {
  requestAnimationFrame(() => {
    if (!form || form.contains(document.activeElement)) return
    form.querySelector<HTMLElement>('button[type="submit"]')?.focus()
  })
}

/** Joins the ids a control is described by, leaving out the missing ones. */
export function describedBy(...ids: (string | undefined | null | false)[]): string | undefined {
  const present = ids.filter(Boolean)
  return present.length > 0 ? present.join(' ') : undefined
}
