import { useEffect, useRef, useState } from 'react'

/**
 * A ref for an element, and a call that moves focus to it once the next render has drawn it:
 * for a heading that takes focus when what had it (a form, a dialog's opener) is gone.
 */
export function useFocusAfterRender<Element extends HTMLElement>() {
  const ref = useRef<Element>(null)
  const [isFocusing, setFocusing] = useState(false)
  useEffect(() => {
    if (!isFocusing) return
    ref.current?.focus()
    setFocusing(false)
  }, [isFocusing])
  return [ref, () => setFocusing(true)] as const
}
