import type { Page } from '@playwright/test'
import { type Lang, msg } from './i18n.ts'

export type ContactDetails = {
  name: string
  email: string
  company?: string
  phone?: string
  /** The visible label of the inquiry type, e.g. "Enterprise sales". */
  inquiryLabel?: string
  message: string
}

/** The contact form's controls, found the way a person finds them: by their labels. */
export function contactForm(page: Page, lang: Lang) {
  const form = page.getByRole('form', { name: msg(lang, 'contact.form.title') })
  return {
    form,
    name: form.getByLabel(msg(lang, 'contact.form.name'), { exact: true }),
    email: form.getByLabel(msg(lang, 'contact.form.email'), { exact: true }),
    company: form.getByLabel(msg(lang, 'contact.form.company')),
    phone: form.getByLabel(msg(lang, 'contact.form.phone')),
    inquiryType: form.getByLabel(msg(lang, 'contact.form.inquiryType')),
    message: form.getByLabel(msg(lang, 'contact.form.message'), { exact: true }),
    submit: form.getByRole('button', { name: msg(lang, 'contact.form.submit') }),
    alert: form.getByRole('alert'),
    successHeading: page.getByRole('heading', { name: msg(lang, 'contact.success.title') }),
    sendAnother: page.getByRole('button', { name: msg(lang, 'contact.success.again') }),
    async fill(details: ContactDetails) {
      await this.name.fill(details.name)
      await this.email.fill(details.email)
      if (details.company !== undefined) await this.company.fill(details.company)
      if (details.phone !== undefined) await this.phone.fill(details.phone)
      if (details.inquiryLabel !== undefined)
        await this.inquiryType.selectOption({ label: details.inquiryLabel })
      await this.message.fill(details.message)
    },
  }
}
