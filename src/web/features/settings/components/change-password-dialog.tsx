import { type FormEvent, useRef, useState } from 'react'
import { isCommonPassword } from '#shared/common-passwords.ts'
import { maxPasswordLength, minPasswordLength } from '#shared/contracts/auth.ts'
import { Button, buttonClasses } from '#web/components/ui/button.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { ModalDialog } from '#web/components/ui/modal-dialog.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { changePassword } from '../api/settings-api.ts'
import { errorMessage } from '../error-message.ts'

type Field = 'current' | 'next' | 'confirm'
type FieldErrors = Partial<Record<Field, string>>

/**
 * The Change Password dialog: current, new and confirm fields, the seed's checks before
 * sending, and the server's answer translated. `onChanged` runs after a successful change.
 */
export function ChangePasswordDialog(props: { onClose: () => void; onChanged: () => void }) {
  const { t } = useI18n()
  const [values, setValues] = useState<Record<Field, string>>({ current: '', next: '', confirm: '' })
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [isSaving, setSaving] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)

  const update = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }))
    setFieldErrors(({ [field]: _cleared, ...rest }) => rest)
  }

  const focusFirstInvalid = () => {
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
  }

  function validate(): FieldErrors {
    const errors: FieldErrors = {}
    if (values.current === '') errors.current = t('settings.passwordDialog.required')
    if (values.next.length < minPasswordLength) errors.next = t('settings.passwordDialog.tooShort')
    else if (values.next.length > maxPasswordLength) errors.next = t('settings.passwordDialog.tooLong')
    else if (isCommonPassword(values.next)) errors.next = t('errors.field.tooCommon')
    if (values.confirm !== values.next) errors.confirm = t('settings.passwordDialog.mismatch')
    return errors
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    setFormError(null)
    const errors = validate()
    if (Object.keys(errors).length > 0) {
      setFieldErrors(errors)
      focusFirstInvalid()
      return
    }
    setSaving(true)
    try {
      await changePassword({ currentPassword: values.current, newPassword: values.next })
      props.onChanged()
    } catch (error) {
      setSaving(false)
      if (error instanceof ApiError && error.code === 'AUTH_WRONG_PASSWORD') {
        setFieldErrors({ current: t('errors.AUTH_WRONG_PASSWORD') })
        focusFirstInvalid()
      } else if (error instanceof ApiError && error.code === 'VALIDATION_FAILED') {
        const reason = error.details?.fields?.newPassword
        setFieldErrors({
          next:
            reason === 'tooCommon' || reason === 'sameAsEmail'
              ? t(`errors.field.${reason}`)
              : t('settings.passwordDialog.tooShort'),
        })
        focusFirstInvalid()
      } else {
        setFormError(errorMessage(t, error))
      }
    }
  }

  const passwordField = (field: Field, label: string, autoComplete: string) => (
    <FormField label={label} error={fieldErrors[field]}>
      {(control) => (
        <input
          {...control}
          type="password"
          name={field}
          autoComplete={autoComplete}
          required
          className={inputClasses}
          value={values[field]}
          onChange={(event) => update(field)(event.target.value)}
        />
      )}
    </FormField>
  )

  return (
    <ModalDialog
      title={t('settings.passwordDialog.title')}
      description={<p>{t('settings.passwordDialog.description')}</p>}
      onClose={props.onClose}
      isBusy={isSaving}
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
        {passwordField('current', t('settings.passwordDialog.current'), 'current-password')}
        {passwordField('next', t('settings.passwordDialog.new'), 'new-password')}
        {passwordField('confirm', t('settings.passwordDialog.confirm'), 'new-password')}
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClasses('secondary')}
            onClick={props.onClose}
            disabled={isSaving}
          >
            {t('settings.passwordDialog.cancel')}
          </button>
          <Button type="submit" disabled={isSaving} aria-busy={isSaving}>
            {isSaving ? t('settings.passwordDialog.saving') : t('settings.passwordDialog.submit')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  )
}
