import { buttonClasses } from './button.tsx'
import { SubmitButton } from './submit-button.tsx'

/** The foot of a form in a dialog: Cancel, then the submit button (stacked on phones, submit on top). */
export function DialogFormActions(props: {
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
