import type { z } from 'zod'
import type { Db } from '#server/db/client.ts'
import { contactMessages } from '#server/db/schema/index.ts'
import { enqueueEmail, type Mailer } from '#server/email/outbox.ts'
import { translateFor } from '#server/i18n.ts'
import type { Logger } from '#server/logger.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import type { contactRequestSchema } from '#shared/contracts/contact.ts'
import type { Locale } from '#shared/i18n/locales.ts'

export type ContactInput = z.output<typeof contactRequestSchema>

/** Five messages per client per ten minutes: enough for a person, too few for a flood. */
export const contactRateLimit: RateLimitRule = { name: 'contact', limit: 5, windowSeconds: 600 }

export type ContactDeps = {
  db: Db
  mailer: Mailer
  rateLimiter: RateLimiter
  supportEmail: string
  supportLanguage: Locale
}

/**
 * Stores a contact message and mails it to support. A filled honeypot means a bot: the
 * message is dropped without a trace, and the bot is told it succeeded.
 */
export async function submitContactMessage(
  deps: ContactDeps,
  input: ContactInput,
  request: { clientIp: string; log: Logger },
): Promise<void> {
  const { clientIp, log } = request
  await deps.rateLimiter.consume(contactRateLimit, clientIp)
  if (input.website !== '') {
    log.info('contact honeypot filled; message dropped')
    return
  }
  const lang = deps.supportLanguage
  const inquiryType = translateFor(lang, `contact.inquiry.${input.inquiryType}`)
  const vars = {
    name: input.name,
    email: input.email,
    company: input.company || '—',
    phone: input.phone || '—',
    inquiryType,
    locale: input.locale,
    message: input.message,
  }
  const emailId = await deps.db.transaction(async (tx) => {
    await tx.insert(contactMessages).values({
      name: input.name,
      email: input.email,
      company: input.company,
      phone: input.phone,
      inquiryType: input.inquiryType,
      message: input.message,
      locale: input.locale,
      clientIp,
    })
    return enqueueEmail(tx, {
      kind: 'contact_notification',
      to: deps.supportEmail,
      replyTo: input.email,
      subject: translateFor(lang, 'emails.contactNotification.subject', vars),
      text: translateFor(lang, 'emails.contactNotification.body', vars),
    })
  })
  // The message is safely stored; a mail failure is recorded in the outbox, not shown to the sender.
  await deps.mailer.deliver(emailId, log)
}
