import type { UsageResponse } from '#shared/contracts/billing.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** This month's usage of the signed-in user against the active plan's quotas. */
export function getUsage(signal?: AbortSignal): Promise<UsageResponse> {
  return apiRequest<UsageResponse>('/api/usage', { signal })
}
