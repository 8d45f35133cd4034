import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',')

/**
 * A modal dialog: the page behind is inert, Tab and Shift+Tab stay inside, Escape closes
 * (unless `isBusy`), and focus goes back to where it was (or to `finalFocusRef`) on close.
 */
export function ModalDialog(props: {
  title: string
  description?: ReactNode
  onClose: () => void
  isBusy?: boolean
  initialFocusRef?: RefObject<HTMLElement | null>
  finalFocusRef?: RefObject<HTMLElement | null>
  /** md (default) for questions and forms; lg for showing content, e.g. a result in the library. */
  size?: 'md' | 'lg'
  children: ReactNode
}) {
  const titleId = useId()
  const descriptionId = useId()
  const panelRef = useRef<HTMLDivElement>(null)
  const { initialFocusRef, finalFocusRef } = props

  useEffect(() => {
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const root = document.getElementById('root')
    root?.setAttribute('inert', '')
    const previousOverflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    const first = initialFocusRef?.current ?? panelRef.current?.querySelector<HTMLElement>(focusableSelector)
    ;(first ?? panelRef.current)?.focus()
    return () => {
      root?.removeAttribute('inert')
      document.body.style.overflow = previousOverflow
      const target = finalFocusRef?.current ?? previouslyFocused
      if (target?.isConnected) target.focus()
      // The opener may have gone (e.g. a plan button that became "Current plan"): start at the content.
      if (!target || document.activeElement !== target) document.getElementById('main')?.focus()
    }
  }, [initialFocusRef, finalFocusRef])

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation()
      if (!props.isBusy) props.onClose()
      return
    }
    if (event.key !== 'Tab' || !panelRef.current) return
    const focusable = [...panelRef.current.querySelectorAll<HTMLElement>(focusableSelector)]
    const first = focusable[0]
    const last = focusable[focusable.length - 1]
    if (!first || !last) {
      event.preventDefault()
      return
    }
    const active = document.activeElement
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-slate-900/60 p-4 sm:items-center">
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={props.description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={handleKeyDown}
        className={`max-h-[90vh] w-full overflow-y-auto rounded-2xl bg-white p-6 shadow-xl outline-none sm:p-8 ${
          props.size === 'lg' ? 'max-w-2xl' : 'max-w-md'
        }`}
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {props.title}
        </h2>
        {props.description ? (
          <div id={descriptionId} className="mt-2 space-y-2 text-sm text-slate-700">
            {props.description}
          </div>
        ) : null}
        {props.children}
      </div>
    </div>,
    document.body,
  )
}
