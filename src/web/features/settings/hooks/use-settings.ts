import { useCallback, useEffect, useRef, useState } from 'react'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import { getSettings } from '../api/settings-api.ts'

export type SettingsState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; settings: SettingsResponse }

/** Loads /api/settings on mount; `reload` retries; `replace` adopts the answer of a change. */
export function useSettings() {
  const [state, setState] = useState<SettingsState>({ status: 'loading' })
  const latestRequest = useRef(0)

  const reload = useCallback(() => {
    latestRequest.current += 1
    const request = latestRequest.current
    setState({ status: 'loading' })
    getSettings().then(
      (settings) => {
        if (request === latestRequest.current) setState({ status: 'ready', settings })
      },
      (error: unknown) => {
        if (request === latestRequest.current) setState({ status: 'error', error })
      },
    )
  }, [])

  const replace = useCallback((settings: SettingsResponse) => {
    latestRequest.current += 1
    setState({ status: 'ready', settings })
  }, [])

  useEffect(() => {
    reload()
    return () => {
      latestRequest.current += 1
    }
  }, [reload])

  return { state, reload, replace }
}
