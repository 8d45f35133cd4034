import { useCallback, useEffect, useRef, useState } from 'react'
import type { BillingResponse } from '#shared/contracts/billing.ts'
import { getBilling } from '../api/billing-api.ts'

export type BillingState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; billing: BillingResponse }

/** Loads /api/billing on mount; `reload` retries; `replace` adopts the answer of a plan change. */
export function useBilling(options: { isEnabled?: boolean } = {}) {
  const isEnabled = options.isEnabled ?? true
  const [state, setState] = useState<BillingState>({ status: 'loading' })
  const latestRequest = useRef(0)

  const reload = useCallback(() => {
    latestRequest.current += 1
    const request = latestRequest.current
    setState({ status: 'loading' })
    getBilling().then(
      (billing) => {
        if (request === latestRequest.current) setState({ status: 'ready', billing })
      },
      (error: unknown) => {
        if (request === latestRequest.current) setState({ status: 'error', error })
      },
    )
  }, [])

  const replace = useCallback((billing: BillingResponse) => {
    latestRequest.current += 1
    setState({ status: 'ready', billing })
  }, [])

  useEffect(() => {
    if (!isEnabled) return
    reload()
    return () => {
      latestRequest.current += 1
    }
  }, [isEnabled, reload])

  return { state, reload, replace }
}
