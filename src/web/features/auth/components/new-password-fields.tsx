import { minPasswordLength } from '#shared/contracts/auth.ts'
import { FormField } from '#web/components/ui/form-field.tsx'
import { PasswordInput } from '#web/components/ui/password-input.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import type { FieldInputProps } from '#web/lib/use-form.ts'

type NewPasswordField = 'password' | 'confirmPassword'

/**
 * A new password and its confirmation, with the length hint while there is no error; labelled
 * "Password" for a new account, "New password" when `isReplacing` one (a reset).
 */
export function NewPasswordFields(props: {
  isReplacing?: boolean
  form: {
    input: (name: NewPasswordField) => FieldInputProps
    errorText: (name: NewPasswordField) => string | undefined
  }
}) {
  const { t } = useI18n()
  const passwordError = props.form.errorText('password')
  const passwordLabel = props.isReplacing ? t('auth.fields.newPassword') : t('auth.fields.password')
  const confirmLabel = props.isReplacing
    ? t('auth.fields.confirmNewPassword')
    : t('auth.fields.confirmPassword')
  return (
    <>
      <NewPasswordField
        label={passwordLabel}
        error={passwordError}
        description={passwordError ? undefined : t('auth.fields.passwordHint', { min: minPasswordLength })}
        input={props.form.input('password')}
        minLength={minPasswordLength}
      />
      <NewPasswordField
        label={confirmLabel}
        error={props.form.errorText('confirmPassword')}
        input={props.form.input('confirmPassword')}
      />
    </>
  )
}

function NewPasswordField(props: {
  label: string
  error: string | undefined
  description?: string
  input: FieldInputProps
  minLength?: number
}) {
  return (
    <FormField label={props.label} error={props.error} description={props.description}>
      {(control) => (
        <PasswordInput
          {...control}
          {...props.input}
          autoComplete="new-password"
          required
          minLength={props.minLength}
        />
      )}
    </FormField>
  )
}
