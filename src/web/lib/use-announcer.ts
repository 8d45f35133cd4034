import { useCallback, useState } from 'react'

/**
 * Text for a polite live region. Saying the same thing twice (two deletions in a row) changes
 * the text by a non-breaking space, so screen readers announce it again.
 */
export function useAnnouncer(): [message: string, announce: (message: string) => void] {
  const [message, setMessage] = useState('')
  const announce = useCallback((next: string) => {
    setMessage((current) => (current === next ? `${next}\u00a0` : next))
  }, [])
  return [message, announce]
}
