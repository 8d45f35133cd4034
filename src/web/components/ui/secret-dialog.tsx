import type { ReactNode, RefObject } from 'react'
import { Button } from './button.tsx'
import { CopyButton } from './copy-button.tsx'
import { ModalDialog } from './modal-dialog.tsx'

/**
 * The one time a secret (an API key, a webhook signing secret) is shown whole: the description is
 * read out with the title, focus starts on the copy button, and closing forgets the secret.
 */
export function SecretDialog(props: {
  title: string
  description: ReactNode
  /** A line above the secret saying whose it is, if any. */
  label?: string
  secret: string
  /** The test id of the secret's text. */
  testId: string
  /** Extra classes for the secret's text. */
  secretClassName?: string
  /** What the copy button copies, e.g. "the API key". */
  copyWhat: string
  doneLabel: string
  onClose: () => void
  finalFocusRef?: RefObject<HTMLElement | null>
}) {
  const { title, description, onClose, finalFocusRef } = props
  return (
    <ModalDialog {...{ title, description, onClose, finalFocusRef }}>
      <div className="mt-5 space-y-3">
        {props.label ? <p className="text-sm font-medium text-slate-900">{props.label}</p> : null}
        <code
          data-testid={props.testId}
          className={`block select-all break-all rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-sm${
            props.secretClassName ? ` ${props.secretClassName}` : ''
          }`}
        >
          {props.secret}
        </code>
        <CopyButton text={props.secret} what={props.copyWhat} />
      </div>
      <div className="mt-6 flex flex-col sm:flex-row sm:justify-end">
        <Button onClick={props.onClose}>{props.doneLabel}</Button>
      </div>
    </ModalDialog>
  )
}
