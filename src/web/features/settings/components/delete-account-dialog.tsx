import { type FormEvent, useRef, useState } from 'react'
import { Button, buttonClasses } from '#web/components/ui/button.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { ModalDialog } from '#web/components/ui/modal-dialog.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { deleteAccount } from '../api/settings-api.ts'
import { errorMessage } from '../error-message.ts'

/**
 * The Delete Account dialog: a clear warning, then the password (or, for a beta account, which
 * has none, the confirmation word typed in the page's language). `onDeleted` runs once the
 * server has deleted everything; the caller signs out and leaves.
 */
export function DeleteAccountDialog(props: {
  hasPassword: boolean
  onClose: () => void
  onDeleted: () => void
}) {
  const { t } = useI18n()
  const [value, setValue] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [formError, setFormError] = useState<string | null>(null)
  const [isDeleting, setDeleting] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const word = t('settings.deleteAccountDialog.confirmWord')

  const focusField = () => {
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('input')?.focus())
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    setFormError(null)
    if (props.hasPassword && value === '') {
      setFieldError(t('settings.deleteAccountDialog.required'))
      focusField()
      return
    }
    if (!props.hasPassword && value.trim() !== word) {
      setFieldError(t('settings.deleteAccountDialog.confirmMismatch', { word }))
      focusField()
      return
    }
    setDeleting(true)
    try {
      await deleteAccount(props.hasPassword ? { password: value } : { confirmation: 'DELETE' })
      props.onDeleted()
    } catch (error) {
      setDeleting(false)
      if (error instanceof ApiError && error.code === 'AUTH_WRONG_PASSWORD') {
        setFieldError(t('errors.AUTH_WRONG_PASSWORD'))
        focusField()
      } else {
        setFormError(errorMessage(t, error))
      }
    }
  }

  return (
    <ModalDialog
      title={t('settings.deleteAccountDialog.title')}
      description={<p className="font-medium text-red-800">{t('settings.deleteAccountDialog.warning')}</p>}
      onClose={props.onClose}
      isBusy={isDeleting}
    >
      <form ref={formRef} noValidate onSubmit={handleSubmit} className="mt-5 space-y-4">
        {formError ? (
          <p
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            {formError}
          </p>
        ) : null}
        <FormField
          label={
            props.hasPassword
              ? t('settings.deleteAccountDialog.passwordLabel')
              : t('settings.deleteAccountDialog.confirmLabel', { word })
          }
          {...(props.hasPassword ? { hint: t('settings.deleteAccountDialog.passwordHint') } : {})}
          {...(fieldError ? { error: fieldError } : {})}
        >
          {(control) => (
            <input
              {...control}
              type={props.hasPassword ? 'password' : 'text'}
              name={props.hasPassword ? 'password' : 'confirmation'}
              autoComplete={props.hasPassword ? 'current-password' : 'off'}
              required
              className={inputClasses}
              value={value}
              onChange={(event) => {
                setValue(event.target.value)
                setFieldError(null)
              }}
            />
          )}
        </FormField>
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClasses('secondary')}
            onClick={props.onClose}
            disabled={isDeleting}
          >
            {t('settings.deleteAccountDialog.cancel')}
          </button>
          <Button type="submit" variant="danger" disabled={isDeleting} aria-busy={isDeleting}>
            {isDeleting
              ? t('settings.deleteAccountDialog.deleting')
              : t('settings.deleteAccountDialog.submit')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  )
}
