import type { ReactNode } from 'react'
import { Button } from '#web/components/ui/button.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'

/** A form's full-width submit button; while busy it is disabled and says what it is doing. */
export function SubmitButton(props: {
  isBusy: boolean
  busyLabel: string
  disabled?: boolean
  children: ReactNode
}) {
  return (
    <Button
      type="submit"
      size="lg"
      className="w-full"
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
