import { eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { emailOutbox } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import type { EmailTransport, OutgoingEmail } from './transport.ts'

export type EmailKind =
  | 'contact_notification'
  | 'password_reset'
  | 'billing_payment_failed'
  | 'billing_action_required'
  | 'auto_topup_done'
  | 'auto_topup_failed'
  | 'subscription_ending'

/**
 * Records an email in the outbox. Call it inside the transaction that causes the email, so the
 * email exists exactly when the change does; deliver it after the commit.
 */
export async function enqueueEmail(db: Db, email: OutgoingEmail & { kind: EmailKind }): Promise<string> {
  const [row] = await db
    .insert(emailOutbox)
    .values({
      toAddress: email.to,
      replyTo: email.replyTo ?? null,
      subject: email.subject,
      textBody: email.text,
      kind: email.kind,
    })
    .returning({ id: emailOutbox.id })
  if (!row) throw new Error('outbox insert returned no row')
  return row.id
}

export type Mailer = {
  /** Sends (or logs) one pending outbox email and records the outcome; never throws. */
  deliver(id: string, log?: Logger): Promise<void>
}

export function createMailer(deps: {
  db: Db
  transport: EmailTransport
  from: string
  logger: Logger
}): Mailer {
  return {
    async deliver(id, log = deps.logger) {
      const [email] = await deps.db.select().from(emailOutbox).where(eq(emailOutbox.id, id))
      if (!email || email.status === 'sent' || email.status === 'logged') return
      try {
        await deps.transport.send(
          {
            from: deps.from,
            to: email.toAddress,
            replyTo: email.replyTo ?? undefined,
            subject: email.subject,
            text: email.textBody,
          },
          log,
        )
        await deps.db
          .update(emailOutbox)
          .set({
            status: deps.transport.kind === 'smtp' ? 'sent' : 'logged',
            attempts: sql`${emailOutbox.attempts} + 1`,
            sentAt: new Date(),
            lastError: null,
          })
          .where(eq(emailOutbox.id, id))
      } catch (error) {
        // The message stays in the outbox as failed, with the reason, for a later retry or a look by hand.
        log.error({ err: error, emailId: id, kind: email.kind }, 'email delivery failed')
        await deps.db
          .update(emailOutbox)
          .set({
            status: 'failed',
            attempts: sql`${emailOutbox.attempts} + 1`,
            lastError: error instanceof Error ? error.message.slice(0, 500) : 'unknown error',
          })
          .where(eq(emailOutbox.id, id))
      }
    },
  }
}
