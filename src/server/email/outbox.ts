import { and, eq, inArray, lte, or, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type EmailOutboxRow, emailOutbox } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import type { EmailTransport, OutgoingEmail } from './transport.ts'

export type EmailKind =
  | 'contact_notification'
  | 'password_reset'
  | 'account_exists'
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
  /**
   * Sends (or logs) one outbox email now, unless it went already or another delivery of it is
   * under way, and records the outcome; never throws.
   */
  deliver(id: string, log?: Logger): Promise<void>
  /**
   * Delivers the emails due again: failed ones whose retry time has come, and those a process
   * left behind (written but never handed over, or a delivery whose lease ran out). Returns how
   * many it tried.
   */
  retryDue(log?: Logger): Promise<number>
}

/**
 * Retries: the first a minute after a failure, then each wait three times the last, at most 6
 * hours: 8 attempts in all, over about 12 hours of a mail server being down. Then the email
 * stays failed for a look by hand.
 * A delivery holds its email for `leaseMs`; an email written more than `abandonedAfterMs` ago
 * and still pending was never handed over (its process stopped after the commit).
 */
export const outboxRetry = {
  baseMs: 60_000,
  maxMs: 6 * 3_600_000,
  maxAttempts: 8,
  leaseMs: 60_000,
  abandonedAfterMs: 5 * 60_000,
  batchSize: 50,
} as const

/** When an email that has failed `attempts` times is tried again; null once they are used up. */
export function nextRetryAt(attempts: number, now: Date): Date | null {
  if (attempts >= outboxRetry.maxAttempts) return null
  const waitMs = Math.min(outboxRetry.baseMs * 3 ** (attempts - 1), outboxRetry.maxMs)
  return new Date(now.getTime() + waitMs)
}

export function createMailer(deps: {
  db: Db
  transport: EmailTransport
  from: string
  logger: Logger
  now?: () => Date
}): Mailer {
  const now = deps.now ?? (() => new Date())

  /** Takes the email for one delivery: one statement, so two deliveries never both send it. */
  async function claim(id: string): Promise<EmailOutboxRow | undefined> {
    const at = now()
    const [email] = await deps.db
      .update(emailOutbox)
      .set({ status: 'sending', nextAttemptAt: new Date(at.getTime() + outboxRetry.leaseMs) })
      .where(
        and(
          eq(emailOutbox.id, id),
          or(
            inArray(emailOutbox.status, ['pending', 'failed']),
            and(eq(emailOutbox.status, 'sending'), lte(emailOutbox.nextAttemptAt, at)),
          ),
        ),
      )
      .returning()
    return email
  }

  async function deliver(id: string, log = deps.logger) {
    const email = await claim(id)
    if (!email) return
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
          sentAt: now(),
          lastError: null,
          nextAttemptAt: null,
        })
        .where(eq(emailOutbox.id, id))
    } catch (error) {
      // The message stays in the outbox as failed, with the reason, for the retry sweep
      // (retryDue) and, once its attempts are used up, a look by hand.
      const attempts = email.attempts + 1
      const retryAt = nextRetryAt(attempts, now())
      log.error({ err: error, emailId: id, kind: email.kind, attempts, retryAt }, 'email delivery failed')
      await deps.db
        .update(emailOutbox)
        .set({
          status: 'failed',
          attempts,
          lastError: error instanceof Error ? error.message.slice(0, 500) : 'unknown error',
          nextAttemptAt: retryAt,
        })
        .where(eq(emailOutbox.id, id))
    }
  }

  return {
    deliver,
    async retryDue(log = deps.logger) {
      const at = now()
      const due = await deps.db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(
          or(
            and(inArray(emailOutbox.status, ['failed', 'sending']), lte(emailOutbox.nextAttemptAt, at)),
            and(
              eq(emailOutbox.status, 'pending'),
              lte(emailOutbox.createdAt, new Date(at.getTime() - outboxRetry.abandonedAfterMs)),
            ),
          ),
        )
        .orderBy(emailOutbox.createdAt)
        .limit(outboxRetry.batchSize)
      // One at a time: a mail server that is down is not asked fifty times at once.
      for (const { id } of due) await deliver(id, log)
      return due.length
    },
  }
}
