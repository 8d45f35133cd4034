import type { Logger } from '#server/logger.ts'

export type OutgoingEmail = {
  to: string
  replyTo?: string | undefined
  subject: string
  text: string
}

/** Delivers one email. `kind` tells the outbox whether it was really sent or only logged. */
export interface EmailTransport {
  readonly kind: 'smtp' | 'log'
  send(email: OutgoingEmail & { from: string }, log: Logger): Promise<void>
}

/** SMTP through nodemailer when a URL is configured; otherwise every email is written to the log. */
export async function createEmailTransport(options: {
  smtpUrl: string | undefined
}): Promise<EmailTransport> {
  if (!options.smtpUrl) {
    return {
      kind: 'log',
      async send(email, log) {
        log.info(
          { email: { to: email.to, subject: email.subject, text: email.text } },
          'email (not sent: no SMTP_URL)',
        )
      },
    }
  }
  const { createTransport } = await import('nodemailer')
  const transporter = createTransport(options.smtpUrl)
  return {
    kind: 'smtp',
    async send(email) {
      await transporter.sendMail({
        from: email.from,
        to: email.to,
        replyTo: email.replyTo,
        subject: email.subject,
        text: email.text,
      })
    },
  }
}
