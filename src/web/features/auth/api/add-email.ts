import type { AddEmailRequest, SignedInResponse } from '#shared/contracts/auth.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** Gives the signed-in beta account an email and password; the answer is the same user, now with its email. */
export function addEmail(request: AddEmailRequest): Promise<SignedInResponse> {
  return apiRequest<SignedInResponse>('/api/auth/email', { body: request })
}
