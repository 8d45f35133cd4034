import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import { type EmailKind, enqueueEmail, type Mailer } from '#server/email/outbox.ts'
import { translateFor } from '#server/i18n.ts'
import type { Logger } from '#server/logger.ts'
import { intlTag, isLocale, type Locale, locales } from '#shared/i18n/locales.ts'
import type { MessageVars } from '#shared/i18n/translate.ts'
import { formatUsd } from '#shared/i18n/translate.ts'
import { getPlan, getTopUpPack, type PlanId, type TopUpPackId } from '#shared/plans.ts'

/** The billing emails and the message keys (emails.json) each is written from. */
const templates = {
  billing_payment_failed: 'paymentFailed',
  billing_action_required: 'paymentActionRequired',
  auto_topup_done: 'autoTopupDone',
  auto_topup_failed: 'autoTopupFailed',
  subscription_ending: 'subscriptionEnding',
} as const satisfies Partial<Record<EmailKind, string>>

export type BillingEmailKind = keyof typeof templates

/** What an email says, given in neutral terms and worded per language when it is written. */
export type BillingEmailFacts =
  | { kind: 'billing_payment_failed'; planId: PlanId }
  | { kind: 'billing_action_required'; invoiceUrl: string }
  | { kind: 'subscription_ending'; planId: PlanId; endsAt: Date }
  | { kind: 'auto_topup_done'; packId: TopUpPackId; used: number; cap: number }
  | {
      kind: 'auto_topup_failed'
      packId: TopUpPackId
      reason: 'declined' | 'authentication_required' | 'no_payment_method' | 'unavailable'
    }

function varsFor(facts: BillingEmailFacts, locale: Locale, publicUrl: string): MessageVars {
  const link = `${publicUrl}/billing`
  const settingsLink = `${publicUrl}/settings?tab=billing`
  switch (facts.kind) {
    case 'billing_payment_failed':
      return { link, plan: getPlan(facts.planId).name }
    case 'billing_action_required':
      return { link, invoiceUrl: facts.invoiceUrl }
    case 'subscription_ending':
      return {
        link,
        plan: getPlan(facts.planId).name,
        date: new Intl.DateTimeFormat(intlTag[locale], { dateStyle: 'long', timeZone: 'UTC' }).format(
          facts.endsAt,
        ),
      }
    case 'auto_topup_done':
    case 'auto_topup_failed': {
      const pack = getTopUpPack(facts.packId)
      const vars: MessageVars = {
        link,
        settingsLink,
        pack: translateFor(locale, `emails.billingPack.${pack.resource}`, { count: pack.amount }),
        price: formatUsd(locale, pack.priceUsd),
      }
      if (facts.kind === 'auto_topup_done') return { ...vars, used: facts.used, cap: facts.cap }
      return { ...vars, reason: translateFor(locale, `emails.autoTopupReason.${facts.reason}`) }
    }
  }
}

function render(facts: BillingEmailFacts, locale: Locale, publicUrl: string) {
  const key = templates[facts.kind]
  const vars = varsFor(facts, locale, publicUrl)
  return {
    subject: translateFor(locale, `emails.${key}.subject`, vars),
    text: translateFor(locale, `emails.${key}.body`, vars),
  }
}

/** Whom a billing email goes to: the user's address, beta flag and remembered language. */
export type BillingRecipient = { email: string | null; isBeta: boolean; locale: string | null } | null

export async function readBillingRecipient(db: Db, userId: string): Promise<BillingRecipient> {
  const [user] = await db
    .select({ email: users.email, isBeta: users.isBeta, locale: users.locale })
    .from(users)
    .where(eq(users.id, userId))
  return user ?? null
}

/**
 * Writes a billing email to the user into the outbox; call it inside the transaction of the
 * change that causes it. In `locale` when the request gives it (they are using Vitrin now), else
 * in the language they last used the app in (users.locale), else, for an account that has not
 * used it since languages were remembered, in both, English first. Nothing for an account
 * without an address of its own (beta). Returns the outbox id, to deliver after commit.
 */
export async function enqueueBillingEmail(
  db: Db,
  input: {
    userId: string
    locale: Locale | null
    publicUrl: string
    facts: BillingEmailFacts
    /** The user's address and language, when the caller read them ahead (readBillingRecipient). */
    recipient?: BillingRecipient | undefined
  },
): Promise<string | null> {
  const user = input.recipient === undefined ? await readBillingRecipient(db, input.userId) : input.recipient
  if (!user || user.isBeta || !user.email) return null
  const known = input.locale ?? (isLocale(user.locale) ? user.locale : null)
  const languages = known ? [known] : [...locales]
  const parts = languages.map((locale) => render(input.facts, locale, input.publicUrl))
  return enqueueEmail(db, {
    kind: input.facts.kind,
    to: user.email,
    subject: parts.map((part) => part.subject).join(' / '),
    text: parts.map((part) => part.text).join('\n————————\n\n'),
  })
}

/** Delivers outbox emails written by a committed transaction; a failure stays in the outbox. */
export async function deliverBillingEmails(
  mailer: Mailer | undefined,
  ids: readonly (string | null)[],
  log?: Logger,
): Promise<void> {
  if (!mailer) return
  for (const id of ids) if (id) await mailer.deliver(id, log)
}
