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
      <FormField
        label={passwordLabel}
        error={passwordError}
        description={passwordError ? undefined : t('auth.fields.passwordHint', { min: minPasswordLength })}
      >
        {(control) => (
          <PasswordInput
            {...control}
            {...props.form.input('password')}
            autoComplete="new-password"
            required
            minLength={minPasswordLength}
          />
        )}
      </FormField>
      <FormField label={confirmLabel} error={props.form.errorText('confirmPassword')}>
        {(control) => (
          <PasswordInput
            {...control}
            {...props.form.input('confirmPassword')}
            autoComplete="new-password"
            required
          />
        )}
      </FormField>
    </>
  )
}
