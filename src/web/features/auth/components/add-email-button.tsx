import { useState } from 'react'
import type { SessionUser } from '#shared/contracts/auth.ts'
import { Button, type ButtonVariant } from '#web/components/ui/button.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { AddEmailDialog } from './add-email-dialog.tsx'

/** "Add email" and the dialog it opens, for a beta account; `onAdded` runs once the email is saved. */
export function AddEmailButton(props: {
  onAdded: (user: SessionUser) => void
  variant?: ButtonVariant
  className?: string
}) {
  const { t } = useI18n()
  const [isOpen, setOpen] = useState(false)
  return (
    <>
      <Button variant={props.variant ?? 'primary'} className={props.className} onClick={() => setOpen(true)}>
        {t('auth.addEmail.open')}
      </Button>
      {isOpen ? (
        <AddEmailDialog
          onClose={() => setOpen(false)}
          onAdded={(user) => {
            setOpen(false)
            props.onAdded(user)
          }}
        />
      ) : null}
    </>
  )
}
