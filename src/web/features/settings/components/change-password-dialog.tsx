import { isCommonPassword } from '#shared/common-passwords.ts'
import { maxPasswordLength, minPasswordLength } from '#shared/contracts/auth.ts'
import type { FieldReason } from '#shared/validation.ts'
import { FormDialog } from '#web/components/ui/form-dialog.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { changePassword } from '../api/settings-api.ts'

type Field = 'current' | 'next' | 'confirm'
/** The shared reasons, plus a confirmation that differs and a current password the server refused. */
type Reason = FieldReason | 'mismatch' | 'wrongPassword'

function validate(values: Record<Field, string>): Partial<Record<Field, Reason>> {
  const errors: Partial<Record<Field, Reason>> = {}
  if (values.current === '') errors.current = 'required'
  if (values.next.length < minPasswordLength) errors.next = 'tooShort'
  else if (values.next.length > maxPasswordLength) errors.next = 'tooLong'
  else if (isCommonPassword(values.next)) errors.next = 'tooCommon'
  if (values.confirm !== values.next) errors.confirm = 'mismatch'
  return errors
}

/**
 * The Change Password dialog: current, new and confirm fields, checked in the browser before
 * sending, and the server's answer translated. `onChanged` runs after a successful change.
 */
export function ChangePasswordDialog(props: { onClose: () => void; onChanged: () => void }) {
  const { t } = useI18n()
  const form = useForm<Record<Field, string>, Reason>({
    initialValues: { current: '', next: '', confirm: '' },
    validate,
    describe: (reason) => {
      if (reason === 'required') return t('settings.passwordDialog.required')
      if (reason === 'tooShort') return t('settings.passwordDialog.tooShort')
      if (reason === 'tooLong') return t('settings.passwordDialog.tooLong')
      if (reason === 'mismatch') return t('settings.passwordDialog.mismatch')
      if (reason === 'wrongPassword') return t('errors.AUTH_WRONG_PASSWORD')
      return t(`errors.field.${reason}`)
    },
    serverFields: { current: 'currentPassword', next: 'newPassword' },
    // The server's password refusals other than too common and same as the email read as the length message.
    serverReason: (reason, field) =>
      field !== 'next' || reason === 'tooCommon' || reason === 'sameAsEmail' ? reason : 'tooShort',
    fieldErrorsFor: (error) =>
      error instanceof ApiError && error.code === 'AUTH_WRONG_PASSWORD' ? { current: 'wrongPassword' } : null,
    action: async (values) => {
      await changePassword({ currentPassword: values.current, newPassword: values.next })
      props.onChanged()
    },
  })

  const passwordField = (field: Field, label: string, autoComplete: string) => (
    <FormField label={label} error={form.errorText(field)}>
      {(control) => (
        <input
          {...control}
          {...form.input(field)}
          type="password"
          autoComplete={autoComplete}
          required
          className={inputClasses}
        />
      )}
    </FormField>
  )

  return (
    <FormDialog keys="settings.passwordDialog" busy="saving" form={form} onClose={props.onClose}>
      {passwordField('current', t('settings.passwordDialog.current'), 'current-password')}
      {passwordField('next', t('settings.passwordDialog.new'), 'new-password')}
      {passwordField('confirm', t('settings.passwordDialog.confirm'), 'new-password')}
    </FormDialog>
  )
}
