import { type ReactNode, startTransition, useState } from 'react'
import { useNavigate } from 'react-router'
import type { SessionUser } from '#shared/contracts/auth.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'
import { useSession } from '#web/lib/session.tsx'
import { ChangePasswordDialog } from './change-password-dialog.tsx'
import { DeleteAccountDialog } from './delete-account-dialog.tsx'

/**
 * Profile: the email (read-only) and Change Password; beta accounts have neither, are told why,
 * and get `addEmailAction` (the page's Add email, from the auth feature), which calls `onAdded`
 * with the account once it has its email.
 */
export function ProfilePanel(props: {
  user: SessionUser
  addEmailAction?: (onAdded: (user: SessionUser) => void) => ReactNode
}) {
  const { t } = useI18n()
  const { user } = props
  const [dialog, setDialog] = useState<'password' | 'delete' | null>(null)
  const [message, setMessage] = useState('')
  const session = useSession()
  const navigate = useNavigate()
  const localized = useLocalizedHref()
  const isBeta = user.isBeta || user.email === null

  function open(next: 'password' | 'delete') {
    setMessage('')
    setDialog(next)
  }

  return (
    <section aria-labelledby="settings-profile-title" className="space-y-8">
      <h2 id="settings-profile-title" className="text-xl font-semibold text-slate-900">
        {t('settings.profile.title')}
      </h2>
      {user.isBeta || user.email === null ? (
        <div className="max-w-xl rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
          <p className="text-sm font-medium text-slate-600">{t('settings.profile.accountLabel')}</p>
          <p className="mt-1 text-lg font-semibold text-slate-900">{t('settings.profile.betaValue')}</p>
          <p className="mt-3 text-slate-700">{t('settings.profile.betaBody')}</p>
          <p className="mt-5 text-sm font-medium text-slate-600">{t('settings.profile.email')}</p>
          <p className="mt-1 text-slate-700">{t('settings.profile.noEmail')}</p>
          {props.addEmailAction ? (
            <div className="mt-4">
              {props.addEmailAction((added) =>
                setMessage(t('auth.addEmail.added', { email: added.email ?? '' })),
              )}
            </div>
          ) : null}
        </div>
      ) : (
        <>
          <FormField
            className="max-w-xl"
            label={t('settings.profile.email')}
            description={t('settings.profile.emailHint')}
          >
            {(control) => (
              <input
                {...control}
                type="email"
                readOnly
                value={user.email ?? ''}
                className={`${inputClasses} bg-slate-50 text-slate-700`}
              />
            )}
          </FormField>
          <AccountAction
            title={t('settings.profile.passwordTitle')}
            body={t('settings.profile.passwordBody')}
            action={t('settings.profile.changePassword')}
            onAction={() => open('password')}
          />
        </>
      )}
      <AccountAction
        isDanger
        title={t('settings.profile.deleteTitle')}
        body={t('settings.profile.deleteBody')}
        action={t('settings.profile.deleteAccount')}
        onAction={() => open('delete')}
      />
      <p role="status" className="text-sm font-medium text-emerald-800">
        {message}
      </p>
      {dialog === 'delete' ? (
        <DeleteAccountDialog
          hasPassword={!isBeta}
          onClose={() => setDialog(null)}
          onDeleted={() => {
            // The server has ended the session and cleared the cookie; forget the user here too,
            // in one transition with the move home, so the page guard never sees a gap.
            startTransition(() => {
              session.setUser(null)
              void navigate(localized('/'), { replace: true })
            })
          }}
        />
      ) : null}
      {dialog === 'password' ? (
        <ChangePasswordDialog
          onClose={() => setDialog(null)}
          onChanged={() => {
            setDialog(null)
            setMessage(t('settings.profile.passwordChanged'))
          }}
        />
      ) : null}
    </section>
  )
}

/** A card for one thing to do with the account: what it is, then its button (red when it destroys). */
function AccountAction(props: {
  title: string
  body: string
  action: string
  onAction: () => void
  isDanger?: boolean
}) {
  return (
    <div
      className={`max-w-xl rounded-2xl border ${props.isDanger ? 'border-red-200' : 'border-slate-200'} bg-white p-5 sm:p-6`}
    >
      <h3 className={`font-semibold ${props.isDanger ? 'text-red-800' : 'text-slate-900'}`}>{props.title}</h3>
      <p className={`mt-1 text-sm ${props.isDanger ? 'text-slate-700' : 'text-slate-600'}`}>{props.body}</p>
      <Button variant={props.isDanger ? 'danger' : 'secondary'} className="mt-4" onClick={props.onAction}>
        {props.action}
      </Button>
    </div>
  )
}
