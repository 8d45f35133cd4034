import { useId } from 'react'
import { Button } from '#web/components/ui/button.tsx'

/**
 * Manage Billing. There is no customer portal to open yet (no payment provider with one is
 * configured), so the button is shown disabled with the reason next to it, never as a dead click.
 */
export function PortalButton(props: { label: string; reason: string }) {
  const reasonId = useId()
  return (
    <div className="flex flex-col gap-2">
      <Button variant="secondary" disabled aria-describedby={reasonId} className="self-start">
        {props.label}
      </Button>
      <p id={reasonId} className="text-sm text-slate-600">
        {props.reason}
      </p>
    </div>
  )
}
