import type { SessionUser } from '#shared/contracts/auth.ts'
import { DialogFormActions } from '#web/components/ui/dialog-form-actions.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { ModalDialog } from '#web/components/ui/modal-dialog.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { addEmail } from '../api/add-email.ts'
import { EmailField } from './email-field.tsx'
import { NewPasswordFields } from './new-password-fields.tsx'
import { useNewAccountForm } from './use-new-account-form.ts'

/**
 * Add an email and password to a beta account: the same account, library and plan, from then on
 * signed in like any other. Checked in the browser like sign-up; on success the session adopts
 * the answered user (the header shows the email, beta notices go) and `onAdded` runs.
 */
export function AddEmailDialog(props: { onClose: () => void; onAdded: (user: SessionUser) => void }) {
  const { t } = useI18n()
  const form = useNewAccountForm(addEmail, props.onAdded)

  return (
    <ModalDialog
      title={t('auth.addEmail.title')}
      description={<p>{t('auth.addEmail.description')}</p>}
      onClose={props.onClose}
      isBusy={form.isBusy}
    >
      <form {...form.formProps} className="mt-5 space-y-4">
        {form.formError ? <FormAlert message={form.formError} className="" /> : null}
        <EmailField form={form} />
        <NewPasswordFields
          passwordLabel={t('auth.fields.password')}
          confirmLabel={t('auth.fields.confirmPassword')}
          form={form}
        />
        <DialogFormActions
          cancelLabel={t('auth.addEmail.cancel')}
          onCancel={props.onClose}
          submitLabel={t('auth.addEmail.submit')}
          busyLabel={t('auth.addEmail.saving')}
          isBusy={form.isBusy}
        />
      </form>
    </ModalDialog>
  )
}
