import { useEffect, useRef } from 'react'
import { contactRequestSchema, type InquiryType, inquiryTypes } from '#shared/contracts/contact.ts'
import { toFieldErrors } from '#shared/validation.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField, FormInput, inputClasses } from '#web/components/ui/form-field.tsx'
import { CheckCircleIcon } from '#web/components/ui/icons.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { sendContactMessage } from '../api/send-contact-message.ts'

type Fields = {
  name: string
  email: string
  company: string
  phone: string
  inquiryType: InquiryType
  message: string
  website: string
}

const emptyFields: Fields = {
  name: '',
  email: '',
  company: '',
  phone: '',
  inquiryType: 'general',
  message: '',
  website: '',
}

/** Who is writing: name and email are needed, company and phone optional. */
const contactInputs: {
  name: 'name' | 'email' | 'company' | 'phone'
  type?: 'email' | 'tel'
  autoComplete: string
  required?: true
}[] = [
  { name: 'name', autoComplete: 'name', required: true },
  { name: 'email', type: 'email', autoComplete: 'email', required: true },
  { name: 'company', autoComplete: 'organization' },
  { name: 'phone', type: 'tel', autoComplete: 'tel' },
]

/** The contact form with its sending, success and error states. */
export function ContactForm() {
  const { t, locale } = useI18n()
  const successRef = useRef<HTMLHeadingElement>(null)
  const form = useForm<Fields>({
    initialValues: emptyFields,
    validate: (values) => {
      const input = { ...values, locale }
      const parsed = contactRequestSchema.safeParse(input)
      return parsed.success ? {} : toFieldErrors(parsed.error, input)
    },
    // The schema trims what it sends; the checks above have passed, so parsing cannot fail here.
    action: (values) => sendContactMessage(contactRequestSchema.parse({ ...values, locale })),
    formErrorKey: (error) =>
      error instanceof ApiError && error.code === 'RATE_LIMITED'
        ? 'errors.RATE_LIMITED'
        : 'contact.form.error',
  })
  const isSent = form.status === 'sent'

  // The success message replaces the form: it takes focus once drawn, so it is announced.
  useEffect(() => {
    if (isSent) successRef.current?.focus()
  }, [isSent])

  if (isSent) {
    return (
      <div
        className="rounded-2xl border border-emerald-200 bg-emerald-50 p-8 text-center"
        data-testid="contact-success"
      >
        <CheckCircleIcon className="mx-auto size-12 text-emerald-600" />
        <h2 ref={successRef} tabIndex={-1} className="mt-4 text-2xl font-bold text-slate-900 outline-none">
          {t('contact.success.title')}
        </h2>
        <p className="mt-2 text-slate-700">{t('contact.success.body')}</p>
        <Button variant="secondary" className="mt-6" onClick={form.reset}>
          {t('contact.success.again')}
        </Button>
      </div>
    )
  }

  const optional = t('contact.form.optional')
  /** A field across both columns, labelled `contact.form.<name>`. */
  const wideField = (name: 'inquiryType' | 'message') => ({
    label: t(`contact.form.${name}`),
    className: 'sm:col-span-2',
    error: form.errorText(name),
  })

  return (
    <form
      {...form.formProps}
      aria-labelledby="contact-form-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id="contact-form-title" className="text-xl font-semibold text-slate-900">
        {t('contact.form.title')}
      </h2>
      {form.formError ? <FormAlert message={form.formError} className="mt-4" /> : null}
      <div className="mt-6 grid gap-5 sm:grid-cols-2">
        {contactInputs.map(({ name, ...input }) => (
          <FormInput
            key={name}
            form={form}
            name={name}
            label={t(`contact.form.${name}`)}
            hint={input.required ? undefined : optional}
            {...input}
          />
        ))}
        <FormField {...wideField('inquiryType')}>
          {(control) => (
            <select {...control} {...form.input('inquiryType')} className={inputClasses}>
              {inquiryTypes.map((type) => (
                <option key={type} value={type}>
                  {t(`contact.inquiry.${type}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField {...wideField('message')}>
          {(control) => (
            <textarea {...control} {...form.input('message')} rows={6} required className={inputClasses} />
          )}
        </FormField>
        {/* Honeypot: hidden from people and assistive technology; bots that fill it are dropped. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label>
            {t('contact.form.website')}
            <input {...form.input('website')} tabIndex={-1} autoComplete="off" />
          </label>
        </div>
      </div>
      <SubmitButton
        isBusy={form.isBusy}
        busyLabel={t('contact.form.sending')}
        className="mt-6 w-full sm:w-auto"
      >
        {t('contact.form.submit')}
      </SubmitButton>
    </form>
  )
}
