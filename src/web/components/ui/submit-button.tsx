import type { ReactNode } from 'react'
import { Button, type ButtonSize, type ButtonVariant } from './button.tsx'
import { Spinner } from './spinner.tsx'

/**
 * A form's submit button; while busy it is disabled, marked aria-busy and says what it is doing.
 * By default large and full-width, as on the auth cards.
 */
export function SubmitButton(props: {
  isBusy: boolean
  busyLabel: string
  disabled?: boolean
  variant?: ButtonVariant
  size?: ButtonSize
  className?: string
  children: ReactNode
}) {
  return (
    <Button
      type="submit"
      variant={props.variant}
      size={props.size ?? 'lg'}
      className={props.className ?? 'w-full'}
      disabled={props.isBusy || props.disabled}
      aria-busy={props.isBusy}
    >
      {props.isBusy ? (
        <>
          <Spinner className="size-4" />
          {props.busyLabel}
        </>
      ) : (
        props.children
      )}
    </Button>
  )
}
