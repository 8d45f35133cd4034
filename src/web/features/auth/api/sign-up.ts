import type { SignedInResponse, SignUpRequest } from '#shared/contracts/auth.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** Creates an account and signs it in (the server sets the session cookie). */
export function signUp(request: SignUpRequest): Promise<SignedInResponse> {
  return apiRequest<SignedInResponse>('/api/auth/sign-up', { body: request })
}
