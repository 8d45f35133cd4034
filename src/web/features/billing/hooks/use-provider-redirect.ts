import { useState } from 'react'
import type { BillingRedirectResponse } from '#shared/contracts/billing.ts'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { leaveFor } from '../leave-for.ts'

/**
 * Starts a trip to the provider's hosted page (checkout, portal): `busy` names the button that
 * asked while the request runs and stays set while the browser leaves; a failure is shown
 * translated and the button works again.
 */
export function useProviderRedirect() {
  const { t } = useI18n()
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function go(id: string, request: () => Promise<BillingRedirectResponse>) {
    setBusy(id)
    setError(null)
    try {
      const { url } = await request()
      leaveFor(url)
    } catch (caught) {
      setError(t(errorMessageKey(caught)))
      setBusy(null)
    }
  }

  return { busy, error, go }
}
