import { useId } from 'react'
import { minPasswordLength } from '#shared/contracts/auth.ts'
import { FormField } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { type AuthFieldErrors, describedBy, describeFieldError } from '../validation.ts'
import { PasswordInput } from './password-input.tsx'

/** A new password and its confirmation, with the length hint while there is no error. */
export function NewPasswordFields(props: {
  passwordLabel: string
  confirmLabel: string
  password: string
  confirmPassword: string
  errors: AuthFieldErrors
  onChange: (name: 'password' | 'confirmPassword', value: string) => void
}) {
  const { t } = useI18n()
  const hintId = useId()
  return (
    <>
      <FormField label={props.passwordLabel} error={describeFieldError(t, props.errors.password)}>
        {(control) => (
          <>
            <PasswordInput
              {...control}
              aria-describedby={describedBy(!props.errors.password && hintId, control['aria-describedby'])}
              name="password"
              autoComplete="new-password"
              required
              minLength={minPasswordLength}
              value={props.password}
              onChange={(e) => props.onChange('password', e.target.value)}
            />
            {props.errors.password ? null : (
              <p id={hintId} className="mt-1.5 text-sm text-slate-600">
                {t('auth.fields.passwordHint', { min: minPasswordLength })}
              </p>
            )}
          </>
        )}
      </FormField>
      <FormField label={props.confirmLabel} error={describeFieldError(t, props.errors.confirmPassword)}>
        {(control) => (
          <PasswordInput
            {...control}
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={props.confirmPassword}
            onChange={(e) => props.onChange('confirmPassword', e.target.value)}
          />
        )}
      </FormField>
    </>
  )
}
