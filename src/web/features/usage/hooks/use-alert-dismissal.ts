import { useCallback, useState } from 'react'
import type { QuotaLevel, QuotaResource } from '#shared/quota.ts'

/**
 * sessionStorage key of one dismissed alert. The level is part of the key, so dismissing the
 * 70 % alert does not hide the 90 % one; sessionStorage makes a dismissal last until the
 * browser session ends.
 */
export function dismissalKey(resource: QuotaResource, level: QuotaLevel): string {
  return `vitrin.quotaAlert.dismissed.${resource}.${level}`
}

function readDismissed(key: string): boolean {
  try {
    return window.sessionStorage.getItem(key) === '1'
  } catch {
    return false
  }
}

/** Which quota alerts the user has dismissed in this browser session. */
export function useAlertDismissal() {
  // Dismissals made while storage is unavailable (private mode) still hold for this page.
  const [dismissedHere, setDismissedHere] = useState<ReadonlySet<string>>(() => new Set())

  const isDismissed = useCallback(
    (resource: QuotaResource, level: QuotaLevel) => {
      const key = dismissalKey(resource, level)
      return dismissedHere.has(key) || readDismissed(key)
    },
    [dismissedHere],
  )

  const dismiss = useCallback((resource: QuotaResource, level: QuotaLevel) => {
    const key = dismissalKey(resource, level)
    try {
      window.sessionStorage.setItem(key, '1')
    } catch {
      // Storage unavailable: the dismissal lasts for this page only.
    }
    setDismissedHere((current) => new Set(current).add(key))
  }, [])

  return { isDismissed, dismiss }
}
