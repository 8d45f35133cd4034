import type { Db } from '#server/db/client.ts'
import { enqueueEmail, type Mailer } from '#server/email/outbox.ts'
import { translateFor } from '#server/i18n.ts'
import type { Logger } from '#server/logger.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { localizedPath } from '#shared/public-pages.ts'

export type PasswordResetEmail = { email: string; token: string; locale: Locale }

/**
 * Writes the password-reset email to the outbox and delivers it, in the language the user is
 * reading Vitrin in. The link is built from PUBLIC_URL (config) only: never from the request's
 * Host or X-Forwarded-Host, which a sender controls.
 */
export async function sendPasswordResetEmail(
  deps: { db: Db; mailer: Mailer; publicUrl: string },
  input: PasswordResetEmail,
  log?: Logger,
): Promise<void> {
  // The page in the email's language: /tr/auth/reset-password/confirm for a Turkish reader.
  const page = localizedPath(input.locale, '/auth/reset-password/confirm')
  const link = `${deps.publicUrl}${page}?token=${encodeURIComponent(input.token)}`
  const id = await enqueueEmail(deps.db, {
    kind: 'password_reset',
    to: input.email,
    subject: translateFor(input.locale, 'emails.passwordReset.subject'),
    text: translateFor(input.locale, 'emails.passwordReset.body', { link }),
  })
  await deps.mailer.deliver(id, log)
}

export type AccountExistsEmail = { email: string; locale: Locale }

/**
 * Tells the owner of an account that someone signed up with its email (sign-up answers as for a
 * new account, so this is where the person learns it), with links to sign in and to reset the
 * password, in their language; the links are built from PUBLIC_URL only.
 */
export async function sendAccountExistsEmail(
  deps: { db: Db; mailer: Mailer; publicUrl: string },
  input: AccountExistsEmail,
  log?: Logger,
): Promise<void> {
  const signInLink = `${deps.publicUrl}${localizedPath(input.locale, '/auth/signin')}`
  const resetLink = `${deps.publicUrl}${localizedPath(input.locale, '/auth/reset-password')}`
  const id = await enqueueEmail(deps.db, {
    kind: 'account_exists',
    to: input.email,
    subject: translateFor(input.locale, 'emails.accountExists.subject'),
    text: translateFor(input.locale, 'emails.accountExists.body', { signInLink, resetLink }),
  })
  await deps.mailer.deliver(id, log)
}
