import type { SessionUser } from '#shared/contracts/auth.ts'
import { FormDialog } from '#web/components/ui/form-dialog.tsx'
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
  const form = useNewAccountForm(addEmail, props.onAdded)

  return (
    <FormDialog keys="auth.addEmail" busy="saving" form={form} onClose={props.onClose}>
      <EmailField form={form} />
      <NewPasswordFields form={form} />
    </FormDialog>
  )
}
