import { useEffect, useId, useState } from 'react'
import { formatDate } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { AddEmailButton } from './add-email-button.tsx'

/**
 * For a beta account (made from an access code, no email): when its session ends, after which
 * its work cannot be reached again, and the way to keep it (add an email). Once the email is
 * saved the notice goes and a confirmation is announced in its place.
 */
export function BetaSessionNotice() {
  const { t, locale } = useI18n()
  const session = useSession()
  const titleId = useId()
  const [addedEmail, setAddedEmail] = useState<string | null>(null)
  const isBeta = session.status === 'signed-in' && session.user.isBeta
  const endsAt = session.sessionEndsAt
  const { refresh } = session

  // A beta account adopted from the access-code answer has no known end yet: ask once.
  useEffect(() => {
    if (isBeta && endsAt === null) void refresh()
  }, [isBeta, endsAt, refresh])

  const date = endsAt ? formatDate(locale, endsAt) : null

  return (
    <div>
      <p role="status" className="mb-6 text-sm font-medium text-emerald-800 empty:hidden">
        {addedEmail ? t('auth.addEmail.added', { email: addedEmail }) : ''}
      </p>
      {isBeta ? (
        <section
          aria-labelledby={titleId}
          data-testid="beta-session-notice"
          className="mb-8 flex flex-col gap-4 rounded-2xl border border-amber-300 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between"
        >
          <div>
            <h2 id={titleId} className="font-semibold text-amber-950">
              {t('auth.betaNotice.title')}
            </h2>
            <p className="mt-1 text-sm text-amber-950">
              {date ? t('auth.betaNotice.body', { date }) : t('auth.betaNotice.bodyNoDate')}
            </p>
          </div>
          <AddEmailButton className="shrink-0" onAdded={(user) => setAddedEmail(user.email ?? '')} />
        </section>
      ) : null}
    </div>
  )
}
