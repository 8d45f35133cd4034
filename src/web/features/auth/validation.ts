import { isCommonPassword } from '#shared/common-passwords.ts'
import { maxPasswordLength, minPasswordLength, signUpRequestSchema } from '#shared/contracts/auth.ts'
import type { FieldReason } from '#shared/validation.ts'
import type { I18n } from '#web/lib/i18n.tsx'

export type AuthField = 'email' | 'password' | 'confirmPassword'

/** Why a field of an auth form was refused: the shared reasons plus too short and mismatch for passwords. */
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

/** A new password and its confirmation, with auth.validation's messages for too short and mismatch. */
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

/** The text shown under a field for its error. */
export function describeFieldError(t: I18n['t'], reason: AuthFieldError): string {
  if (reason === 'passwordTooShort') return t('auth.validation.passwordTooShort', { min: minPasswordLength })
  if (reason === 'passwordMismatch') return t('auth.validation.passwordMismatch')
  return t(`errors.field.${reason}`)
}

/** A reason the server gave: a password it finds too short reads as passwordTooShort, like the client check. */
export function authServerReason(reason: FieldReason, field: string): AuthFieldError {
  return field === 'password' && reason === 'tooShort' ? 'passwordTooShort' : reason
}
