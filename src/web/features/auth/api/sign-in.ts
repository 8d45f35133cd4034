import type { SignedInResponse, SignInRequest } from '#shared/contracts/auth.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** Signs in with email and password; the server sets the session cookie and answers with the user. */
export function signIn(request: SignInRequest): Promise<SignedInResponse> {
  return apiRequest<SignedInResponse>('/api/auth/sign-in', { body: request })
}
