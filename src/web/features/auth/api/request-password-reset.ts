import type { PasswordResetRequest } from '#shared/contracts/auth.ts'
import type { OkResponse } from '#shared/contracts/common.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** Asks for a reset link; the server answers the same whether or not the account exists. */
export async function requestPasswordReset(request: PasswordResetRequest): Promise<void> {
  await apiRequest<OkResponse>('/api/auth/password-reset', { body: request })
}
