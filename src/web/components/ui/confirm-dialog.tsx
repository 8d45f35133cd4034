import { type ReactNode, type RefObject, useRef, useState } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import type { MessageVars } from '#shared/i18n/translate.ts'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { type GroupWith, useI18n } from '#web/lib/i18n.tsx'
import { Button, buttonClasses } from './button.tsx'
import { ModalDialog } from './modal-dialog.tsx'

const dangerClasses =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-60'

/** The message groups that have every word a confirm dialog says. */
type ConfirmGroup = GroupWith<'title'> &
  GroupWith<'body'> &
  GroupWith<'confirm'> &
  GroupWith<'cancel'> &
  GroupWith<'busy'>

/**
 * A ConfirmDialog's words from one message group: `.title` (with `vars`, e.g. what is deleted),
 * `.body`, `.confirm`, `.cancel` and `.busy`.
 */
export function confirmText(
  t: (key: TKey, vars?: MessageVars) => string,
  group: ConfirmGroup,
  vars?: MessageVars,
) {
  // ConfirmGroup holds each key to the group, which TypeScript cannot see through the template.
  const text = (suffix: string) => t(`${group}.${suffix}` as TKey)
  return {
    title: t(`${group}.title` as TKey, vars),
    body: <p>{text('body')}</p>,
    confirmLabel: text('confirm'),
    cancelLabel: text('cancel'),
    busyLabel: text('busy'),
  }
}

/**
 * Asks before an action. Confirming runs `onConfirm`; while it runs both buttons wait; if it
 * fails the translated error shows and the dialog stays open. The caller closes it on success.
 */
export function ConfirmDialog(props: {
  title: string
  body: ReactNode
  confirmLabel: string
  cancelLabel: string
  /** The confirm button's text while `onConfirm` runs. */
  busyLabel: string
  tone?: 'primary' | 'danger'
  onConfirm: () => Promise<void>
  onClose: () => void
  finalFocusRef?: RefObject<HTMLElement | null>
}) {
  const { t } = useI18n()
  const [isBusy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)

  async function handleConfirm() {
    setBusy(true)
    setError(null)
    try {
      await props.onConfirm()
    } catch (caught) {
      setError(t(errorMessageKey(caught)))
      setBusy(false)
    }
  }

  return (
    <ModalDialog
      title={props.title}
      description={props.body}
      onClose={props.onClose}
      isBusy={isBusy}
      initialFocusRef={cancelRef}
      finalFocusRef={props.finalFocusRef}
    >
      {error ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button
          ref={cancelRef}
          type="button"
          className={buttonClasses('secondary')}
          onClick={props.onClose}
          disabled={isBusy}
        >
          {props.cancelLabel}
        </button>
        {props.tone === 'danger' ? (
          <button
            type="button"
            className={dangerClasses}
            onClick={() => void handleConfirm()}
            disabled={isBusy}
            aria-busy={isBusy}
          >
            {isBusy ? props.busyLabel : props.confirmLabel}
          </button>
        ) : (
          <Button onClick={() => void handleConfirm()} disabled={isBusy} aria-busy={isBusy}>
            {isBusy ? props.busyLabel : props.confirmLabel}
          </Button>
        )}
      </div>
    </ModalDialog>
  )
}
