import { type ReactNode, useId } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import { type GroupWith, useI18n } from '#web/lib/i18n.tsx'
import type { Form } from '#web/lib/use-form.ts'
import { AuthCard, type AuthCardIcon } from './auth-card.tsx'

/**
 * The form of a sign-in, sign-up, reset or access card, named by the card's title: the form's
 * error first, then the fields (`children`) and the submit button, whose words are the card's
 * `<keys>.submit` and `<keys>.submitting`.
 */
export function AuthForm(props: {
  form: Pick<Form<never, never>, 'formProps' | 'formError' | 'isBusy'>
  titleId: string
  keys: GroupWith<'submit'> & GroupWith<'submitting'>
  /** The error's id, for a field that names it as its description. */
  alertId?: string
  /** While true the button stays disabled (a code not yet complete). */
  isSubmitDisabled?: boolean
  children: ReactNode
}) {
  const { t } = useI18n()
  const { form } = props
  return (
    <form {...form.formProps} aria-labelledby={props.titleId}>
      {form.formError ? <FormAlert id={props.alertId} message={form.formError} /> : null}
      <div className="space-y-5">
        {props.children}
        <SubmitButton
          isBusy={form.isBusy}
          busyLabel={t(`${props.keys}.submitting` as TKey)}
          disabled={props.isSubmitDisabled}
        >
          {t(`${props.keys}.submit` as TKey)}
        </SubmitButton>
      </div>
    </form>
  )
}

/**
 * A card whose content is its form: the card's title is `<keys>.title` (the form is named by it),
 * its line `subtitle` or else `<keys>.subtitle`, then the form with the fields (`children`).
 */
export function AuthFormCard(props: {
  icon: AuthCardIcon
  form: Pick<Form<never, never>, 'formProps' | 'formError' | 'isBusy'>
  keys: GroupWith<'title'> & GroupWith<'subtitle'> & GroupWith<'submit'> & GroupWith<'submitting'>
  subtitle?: ReactNode
  focusTitle?: boolean
  footer: ReactNode
  alertId?: string
  isSubmitDisabled?: boolean
  children: ReactNode
}) {
  const { t } = useI18n()
  const titleId = useId()
  return (
    <AuthCard
      icon={props.icon}
      title={t(`${props.keys}.title` as TKey)}
      titleId={titleId}
      subtitle={props.subtitle ?? t(`${props.keys}.subtitle` as TKey)}
      focusTitle={props.focusTitle}
      footer={props.footer}
    >
      <AuthForm
        form={props.form}
        titleId={titleId}
        keys={props.keys}
        alertId={props.alertId}
        isSubmitDisabled={props.isSubmitDisabled}
      >
        {props.children}
      </AuthForm>
    </AuthCard>
  )
}
