import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { ContactForm } from './contact-form.tsx'

const fetchMock = stubFetchForEachTest()

/** A text field by its label; with `error`, only if that text is its accessible description. */
const field = (name: RegExp, error?: string) =>
  screen.getByRole<HTMLInputElement>('textbox', {
    name,
    ...(error === undefined ? {} : { description: error }),
  })

const isInvalid = (control: HTMLElement) => control.getAttribute('aria-invalid') === 'true'

const sentBody = (call = 0): unknown => JSON.parse(String(fetchMock.mock.calls[call]?.[1]?.body))

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field(/^name$/i), '  Ayşe Yılmaz ')
  await user.type(field(/^email$/i), 'ayse@example.com')
  await user.type(field(/^company/i), 'Yılmaz Tekstil')
  await user.type(field(/^phone/i), '+90 212 555 01 23')
  await user.selectOptions(screen.getByRole('combobox', { name: 'Inquiry type' }), 'Enterprise sales')
  await user.type(field(/^message$/i), 'We need a volume plan.')
}

describe('ContactForm', () => {
  it('marks the empty required fields, focuses the first and sends nothing', async () => {
    const user = userEvent.setup()
    await renderWeb(<ContactForm />)

    await user.click(screen.getByRole('button', { name: 'Send Message' }))

    const name = field(/^name$/i, 'This field is required.')
    const message = field(/^message$/i, 'This field is required.')
    const email = field(/^email$/i)
    expect([name, email, message].map(isInvalid)).toEqual([true, true, true])
    expect(isInvalid(field(/^company/i))).toBe(false)
    expect(isInvalid(field(/^phone/i))).toBe(false)
    await vi.waitFor(() => expect(document.activeElement).toBe(name))
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('reports an empty email as required', async () => {
    const user = userEvent.setup()
    await renderWeb(<ContactForm />)
    await user.click(screen.getByRole('button', { name: 'Send Message' }))
    expect(field(/^email$/i, 'This field is required.')).toBeTruthy()
  })

  it('posts the trimmed fields with the language and shows the success state', async () => {
    fetchMock.mockResolvedValue(json(201, { ok: true }))
    const user = userEvent.setup()
    await renderWeb(<ContactForm />)

    await fillValidForm(user)
    await user.click(screen.getByRole('button', { name: 'Send Message' }))

    await screen.findByRole('heading', { name: 'Message Sent!' })
    expect(screen.getByText("We'll get back to you within 24 hours")).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(url).toBe('/api/contact')
    expect(init?.method).toBe('POST')
    expect(sentBody()).toEqual({
      name: 'Ayşe Yılmaz',
      email: 'ayse@example.com',
      company: 'Yılmaz Tekstil',
      phone: '+90 212 555 01 23',
      inquiryType: 'enterprise',
      message: 'We need a volume plan.',
      locale: 'en',
      website: '',
    })

    await user.click(screen.getByRole('button', { name: 'Send Another Message' }))
    expect(field(/^name$/i).value).toBe('')
    expect(field(/^email$/i).value).toBe('')
    expect(field(/^message$/i).value).toBe('')
  })

  it('sends the Turkish locale and thanks in Turkish', async () => {
    fetchMock.mockResolvedValue(json(201, { ok: true }))
    const user = userEvent.setup()
    await renderWeb(<ContactForm />, { locale: 'tr' })

    await user.type(field(/^ad soyad$/i), 'İsmail')
    await user.type(field(/^e-posta$/i), 'ismail@example.com')
    await user.type(field(/^mesaj$/i), 'Merhaba')
    await user.click(screen.getByRole('button', { name: 'Mesajı Gönder' }))

    await screen.findByRole('heading', { name: 'Mesajınız Gönderildi!' })
    expect(sentBody()).toMatchObject({ name: 'İsmail', locale: 'tr', inquiryType: 'general' })
  })

  it('shows the rate-limit message on a 429 and keeps the typed text', async () => {
    fetchMock.mockResolvedValue(
      json(429, {
        error: {
          code: 'RATE_LIMITED',
          message: 'Too many contact attempts',
          details: { retryAfterSeconds: 540 },
        },
      }),
    )
    const user = userEvent.setup()
    await renderWeb(<ContactForm />)

    await fillValidForm(user)
    await user.click(screen.getByRole('button', { name: 'Send Message' }))

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('Too many attempts. Please wait a few minutes and try again.')
    expect(field(/^message$/i).value).toBe('We need a volume plan.')
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send Message' }).disabled).toBe(false)
  })

  it('shows the generic failure message when the server fails', async () => {
    fetchMock.mockResolvedValue(json(500, { error: { code: 'INTERNAL', message: 'Internal error' } }))
    const user = userEvent.setup()
    await renderWeb(<ContactForm />)

    await fillValidForm(user)
    await user.click(screen.getByRole('button', { name: 'Send Message' }))

    expect((await screen.findByRole('alert')).textContent).toBe('Failed to send message. Please try again.')
  })

  it("puts the server's field error next to the field on a 400", async () => {
    fetchMock.mockResolvedValue(
      json(400, {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid field(s): email',
          details: { fields: { email: 'email' } },
        },
      }),
    )
    const user = userEvent.setup()
    await renderWeb(<ContactForm />)

    await fillValidForm(user)
    await user.click(screen.getByRole('button', { name: 'Send Message' }))

    const email = await vi.waitFor(() => field(/^email$/i, 'Enter a valid email address.'))
    expect(isInvalid(email)).toBe(true)
    expect(isInvalid(field(/^name$/i))).toBe(false)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send Message' }).disabled).toBe(false)
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})
