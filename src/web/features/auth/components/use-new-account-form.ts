import type { SessionUser } from '#shared/contracts/auth.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useForm } from '#web/lib/use-form.ts'
import {
  type AuthFieldError,
  authServerReason,
  checkEmail,
  checkNewPassword,
  describeFieldError,
} from '../validation.ts'

type NewAccountValues = { email: string; password: string; confirmPassword: string }

/**
 * An email with a new password and its confirmation, checked like sign-up; `send` returns the
 * signed-in user, whom the session adopts before `onDone` runs. Sign-up and a beta account adding
 * its email share it.
 */
export function useNewAccountForm(
  send: (credentials: { email: string; password: string }) => Promise<{ user: SessionUser }>,
  onDone?: (user: SessionUser) => void,
) {
  const { t } = useI18n()
  const session = useSession()
  return useForm<NewAccountValues, AuthFieldError>({
    initialValues: { email: '', password: '', confirmPassword: '' },
    validate: (values) => ({
      email: checkEmail(values.email),
      ...checkNewPassword(values.password, values.confirmPassword),
    }),
    describe: (reason) => describeFieldError(t, reason),
    serverReason: authServerReason,
    action: async (values) => {
      const { user } = await send({ email: values.email, password: values.password })
      session.setUser(user)
      onDone?.(user)
    },
  })
}
