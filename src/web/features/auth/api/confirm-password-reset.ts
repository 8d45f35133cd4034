import type { PasswordResetConfirm } from '#shared/contracts/auth.ts'
import type { OkResponse } from '#shared/contracts/common.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** Sets a new password from an emailed token; the server then ends every session of the account. */
export async function confirmPasswordReset(request: PasswordResetConfirm): Promise<void> {
  await apiRequest<OkResponse>('/api/auth/password-reset/confirm', { body: request })
}
