import { type FormEvent, useEffect, useRef, useState } from 'react'
import { contactRequestSchema, type InquiryType, inquiryTypes } from '#shared/contracts/contact.ts'
import { type FieldReason, toFieldErrors } from '#shared/validation.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
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

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'error'; message: string }

/** The contact form with its sending, success and error states. */
export function ContactForm() {
  const { t, locale } = useI18n()
  const [fields, setFields] = useState<Fields>(emptyFields)
  const [fieldErrors, setFieldErrors] = useState<Record<string, FieldReason>>({})
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const formRef = useRef<HTMLFormElement>(null)
  const successRef = useRef<HTMLHeadingElement>(null)

  const update = (name: keyof Fields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }))
    setFieldErrors(({ [name]: _cleared, ...rest }) => rest)
  }

  const errorFor = (name: keyof Fields) => {
    const reason = fieldErrors[name]
    return reason ? t(`errors.field.${reason}`) : undefined
  }

  // Focus moves after React has drawn the new state (the success message or the field errors),
  // so it is requested here and carried out in an effect, never in a timer that may run first.
  const [focusRequest, setFocusRequest] = useState<{ target: 'invalid' | 'success'; seq: number } | null>(
    null,
  )
  const focusFirstInvalid = () => setFocusRequest((r) => ({ target: 'invalid', seq: (r?.seq ?? 0) + 1 }))
  useEffect(() => {
    if (!focusRequest) return
    if (focusRequest.target === 'success') successRef.current?.focus()
    else formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [focusRequest])

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    const input = { ...fields, locale }
    const parsed = contactRequestSchema.safeParse(input)
    if (!parsed.success) {
      setFieldErrors(toFieldErrors(parsed.error, input))
      focusFirstInvalid()
      return
    }
    setStatus({ kind: 'sending' })
    try {
      await sendContactMessage(parsed.data)
      setStatus({ kind: 'sent' })
      setFields(emptyFields)
      setFocusRequest((r) => ({ target: 'success', seq: (r?.seq ?? 0) + 1 }))
    } catch (error) {
      if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && error.details?.fields) {
        setFieldErrors(error.details.fields as Record<string, FieldReason>)
        setStatus({ kind: 'idle' })
        focusFirstInvalid()
        return
      }
      const message =
        error instanceof ApiError && error.code === 'RATE_LIMITED'
          ? t('errors.RATE_LIMITED')
          : t('contact.form.error')
      setStatus({ kind: 'error', message })
    }
  }

  if (status.kind === 'sent') {
    return (
      <div
        className="rounded-2xl border border-emerald-200 bg-emerald-50 p-8 text-center"
        data-testid="contact-success"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="mx-auto size-12 text-emerald-600"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <circle cx="12" cy="12" r="10" />
          <path d="m7.5 12.5 3 3 6-6.5" />
        </svg>
        <h2 ref={successRef} tabIndex={-1} className="mt-4 text-2xl font-bold text-slate-900 outline-none">
          {t('contact.success.title')}
        </h2>
        <p className="mt-2 text-slate-700">{t('contact.success.body')}</p>
        <Button variant="secondary" className="mt-6" onClick={() => setStatus({ kind: 'idle' })}>
          {t('contact.success.again')}
        </Button>
      </div>
    )
  }

  const isSending = status.kind === 'sending'
  const optional = t('contact.form.optional')

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={handleSubmit}
      aria-labelledby="contact-form-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id="contact-form-title" className="text-xl font-semibold text-slate-900">
        {t('contact.form.title')}
      </h2>
      {status.kind === 'error' ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {status.message}
        </p>
      ) : null}
      <div className="mt-6 grid gap-5 sm:grid-cols-2">
        <FormField label={t('contact.form.name')} error={errorFor('name')}>
          {(control) => (
            <input
              {...control}
              name="name"
              autoComplete="name"
              required
              className={inputClasses}
              value={fields.name}
              onChange={(e) => update('name')(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t('contact.form.email')} error={errorFor('email')}>
          {(control) => (
            <input
              {...control}
              name="email"
              type="email"
              autoComplete="email"
              required
              className={inputClasses}
              value={fields.email}
              onChange={(e) => update('email')(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t('contact.form.company')} hint={optional} error={errorFor('company')}>
          {(control) => (
            <input
              {...control}
              name="company"
              autoComplete="organization"
              className={inputClasses}
              value={fields.company}
              onChange={(e) => update('company')(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t('contact.form.phone')} hint={optional} error={errorFor('phone')}>
          {(control) => (
            <input
              {...control}
              name="phone"
              type="tel"
              autoComplete="tel"
              className={inputClasses}
              value={fields.phone}
              onChange={(e) => update('phone')(e.target.value)}
            />
          )}
        </FormField>
        <FormField
          label={t('contact.form.inquiryType')}
          className="sm:col-span-2"
          error={errorFor('inquiryType')}
        >
          {(control) => (
            <select
              {...control}
              name="inquiryType"
              className={inputClasses}
              value={fields.inquiryType}
              onChange={(e) => update('inquiryType')(e.target.value)}
            >
              {inquiryTypes.map((type) => (
                <option key={type} value={type}>
                  {t(`contact.inquiry.${type}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={t('contact.form.message')} className="sm:col-span-2" error={errorFor('message')}>
          {(control) => (
            <textarea
              {...control}
              name="message"
              rows={6}
              required
              className={inputClasses}
              value={fields.message}
              onChange={(e) => update('message')(e.target.value)}
            />
          )}
        </FormField>
        {/* Honeypot: hidden from people and assistive technology; bots that fill it are dropped. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label>
            {t('contact.form.website')}
            <input
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={fields.website}
              onChange={(e) => update('website')(e.target.value)}
            />
          </label>
        </div>
      </div>
      <Button
        type="submit"
        size="lg"
        className="mt-6 w-full sm:w-auto"
        disabled={isSending}
        aria-busy={isSending}
      >
        {isSending ? t('contact.form.sending') : t('contact.form.submit')}
      </Button>
    </form>
  )
}
