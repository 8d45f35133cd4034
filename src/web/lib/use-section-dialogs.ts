import { useRef, useState } from 'react'
import { useAnnouncer } from './use-announcer.ts'

/**
 * The dialogs of a settings section that lists things (API keys, webhook endpoints): which one
 * is open, the section's heading (where focus goes once the thing a dialog acted on is gone),
 * where focus goes when a dialog closes (null: back to whatever opened it), and the message said
 * after an action. `open` starts afresh: focus returns to the opener, the old message is cleared,
 * and so is anything `onOpen` clears.
 */
export function useSectionDialogs<Dialog>(onOpen?: () => void) {
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const [message, announce] = useAnnouncer()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const focusAfterDialogRef = useRef<HTMLElement | null>(null)

  function open(next: Dialog) {
    focusAfterDialogRef.current = null
    announce('')
    onOpen?.()
    setDialog(next)
  }

  return { dialog, setDialog, open, message, announce, headingRef, focusAfterDialogRef }
}
