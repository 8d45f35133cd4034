import type { ReactNode } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { type GroupWith, useI18n } from '#web/lib/i18n.tsx'
import type { Form } from '#web/lib/use-form.ts'
import { buttonClasses } from './button.tsx'
import { FormAlert } from './form-alert.tsx'
import { ModalDialog } from './modal-dialog.tsx'
import { SubmitButton } from './submit-button.tsx'

/** The message groups that have the keys a form dialog reads: `<group>.title`, `.cancel`, `.submit`. */
type DialogKeys = GroupWith<'title'> & GroupWith<'cancel'> & GroupWith<'submit'>

/** The key of the submit button's busy label inside the group ("Creating…", "Saving…"). */
type BusySuffix<Group extends string> = {
  [Suffix in 'busy' | 'saving' | 'deleting']: `${Group}.${Suffix}` extends TKey ? Suffix : never
}['busy' | 'saving' | 'deleting']

/** A description other than the group's `.description` line; required when the group has none. */
type DescriptionProp<Group extends string> = `${Group}.description` extends TKey
  ? { description?: ReactNode }
  : { description: ReactNode }

/**
 * A dialog around one `useForm` form: its title and description, the form's error above the
 * fields, then Cancel and the submit button. Its words come from one message group (`keys`), so
 * every such dialog says and does the same around its own fields.
 */
export function FormDialog<Group extends DialogKeys>(
  props: {
    keys: Group
    busy: BusySuffix<Group>
    form: Pick<Form<never, never>, 'isBusy' | 'formError' | 'formProps'>
    onClose: () => void
    variant?: 'primary' | 'danger'
    children: ReactNode
  } & DescriptionProp<Group>,
) {
  const { t } = useI18n()
  const { keys, form } = props
  // The types above hold each key to the message group, which TypeScript cannot see through the template.
  const text = (suffix: string) => t(`${keys}.${suffix}` as TKey)
  return (
    <ModalDialog
      title={text('title')}
      description={props.description ?? <p>{text('description')}</p>}
      onClose={props.onClose}
      isBusy={form.isBusy}
    >
      <form {...form.formProps} className="mt-5 space-y-4">
        {form.formError ? <FormAlert message={form.formError} className="" /> : null}
        {props.children}
        <DialogFormActions
          cancelLabel={text('cancel')}
          onCancel={props.onClose}
          submitLabel={text('submit')}
          busyLabel={text(props.busy)}
          isBusy={form.isBusy}
          variant={props.variant}
        />
      </form>
    </ModalDialog>
  )
}

/** The foot of a form in a dialog: Cancel, then the submit button (stacked on phones, submit on top). */
function DialogFormActions(props: {
  cancelLabel: string
  onCancel: () => void
  submitLabel: string
  busyLabel: string
  isBusy: boolean
  variant?: 'primary' | 'danger'
}) {
  return (
    <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
      <button
        type="button"
        className={buttonClasses('secondary')}
        onClick={props.onCancel}
        disabled={props.isBusy}
      >
        {props.cancelLabel}
      </button>
      <SubmitButton
        isBusy={props.isBusy}
        busyLabel={props.busyLabel}
        variant={props.variant}
        size="md"
        className=""
      >
        {props.submitLabel}
      </SubmitButton>
    </div>
  )
}
