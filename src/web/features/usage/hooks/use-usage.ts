import { useCallback, useEffect, useRef, useState } from 'react'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import { getUsage } from '../api/get-usage.ts'

export type UsageState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; usage: UsageResponse }

/** Loads /api/usage once on mount; `reload` asks again (retry, or after a plan change). */
export function useUsage(): UsageState & { reload: () => void } {
  const [state, setState] = useState<UsageState>({ status: 'loading' })
  // Only the latest request may set the state, so a slow earlier answer cannot overwrite a newer one.
  const latestRequest = useRef(0)

  const reload = useCallback(() => {
    latestRequest.current += 1
    const request = latestRequest.current
    setState((current) => (current.status === 'ready' ? current : { status: 'loading' }))
    getUsage().then(
      (usage) => {
        if (request === latestRequest.current) setState({ status: 'ready', usage })
      },
      (error: unknown) => {
        if (request === latestRequest.current) setState({ status: 'error', error })
      },
    )
  }, [])

  useEffect(() => {
    reload()
    return () => {
      // Answers arriving after unmount are ignored.
      latestRequest.current += 1
    }
  }, [reload])

  return { ...state, reload }
}
