import type { RedeemAccessCodeRequest } from '#shared/contracts/access.ts'
import type { SignedInResponse } from '#shared/contracts/auth.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** Trades a beta access code for a session (a new beta account, or the current one when signed in). */
export function redeemAccessCode(request: RedeemAccessCodeRequest): Promise<SignedInResponse> {
  return apiRequest<SignedInResponse>('/api/access', { body: request })
}
