import { FormDialog } from '#web/components/ui/form-dialog.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { deleteAccount } from '../api/settings-api.ts'

/** No password typed; the confirmation word typed wrong; a password the server refused. */
type Reason = 'required' | 'mismatch' | 'wrongPassword'

/**
 * The Delete Account dialog: a clear warning, then the password (or, for a beta account, which
 * has none, the confirmation word typed in the page's language). `onDeleted` runs once the
 * server has deleted everything; the caller signs out and leaves.
 */
export function DeleteAccountDialog(props: {
  hasPassword: boolean
  onClose: () => void
  onDeleted: () => void
}) {
  const { t } = useI18n()
  const word = t('settings.deleteAccountDialog.confirmWord')
  const form = useForm<{ answer: string }, Reason>({
    initialValues: { answer: '' },
    validate: ({ answer }) => {
      if (props.hasPassword) return { answer: answer === '' ? 'required' : undefined }
      return { answer: answer.trim() === word ? undefined : 'mismatch' }
    },
    describe: (reason) => {
      if (reason === 'required') return t('settings.deleteAccountDialog.required')
      if (reason === 'mismatch') return t('settings.deleteAccountDialog.confirmMismatch', { word })
      return t('errors.AUTH_WRONG_PASSWORD')
    },
    // Any other refusal is told above the field.
    serverFields: {},
    fieldErrorsFor: (error) =>
      error instanceof ApiError && error.code === 'AUTH_WRONG_PASSWORD' ? { answer: 'wrongPassword' } : null,
    action: async ({ answer }) => {
      await deleteAccount(props.hasPassword ? { password: answer } : { confirmation: 'DELETE' })
      props.onDeleted()
    },
  })

  return (
    <FormDialog
      keys="settings.deleteAccountDialog"
      busy="deleting"
      form={form}
      onClose={props.onClose}
      description={<p className="font-medium text-red-800">{t('settings.deleteAccountDialog.warning')}</p>}
      variant="danger"
    >
      <FormField
        label={
          props.hasPassword
            ? t('settings.deleteAccountDialog.passwordLabel')
            : t('settings.deleteAccountDialog.confirmLabel', { word })
        }
        hint={props.hasPassword ? t('settings.deleteAccountDialog.passwordHint') : undefined}
        error={form.errorText('answer')}
      >
        {(control) => (
          <input
            {...control}
            {...form.input('answer')}
            type={props.hasPassword ? 'password' : 'text'}
            name={props.hasPassword ? 'password' : 'confirmation'}
            autoComplete={props.hasPassword ? 'current-password' : 'off'}
            required
            className={inputClasses}
          />
        )}
      </FormField>
    </FormDialog>
  )
}
