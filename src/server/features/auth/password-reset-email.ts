import type { Db } from '../../db/client.ts'
import { enqueueEmail, type Mailer } from '../../email/outbox.ts'
import { requestContext } from '../../http/request-context.ts'
import { translateFor } from '../../i18n.ts'

/**
 * Sends the password-reset email in the language the user is reading Vitrin in, with a link to
 * our own confirm page on the site they reached (or PUBLIC_URL).
 */
export function createPasswordResetSender(deps: { db: Db; mailer: Mailer; publicUrl: string | undefined }) {
  return async (input: { email: string; token: string }) => {
    const context = requestContext.getStore()
    const locale = context?.locale ?? 'en'
    const origin = deps.publicUrl ?? context?.origin ?? 'http://localhost:3000'
    const link = `${origin}/auth/reset-password/confirm?token=${encodeURIComponent(input.token)}`
    const id = await enqueueEmail(deps.db, {
      kind: 'password_reset',
      to: input.email,
      subject: translateFor(locale, 'emails.passwordReset.subject'),
      text: translateFor(locale, 'emails.passwordReset.body', { link }),
    })
    await deps.mailer.deliver(id, context?.log)
  }
}
