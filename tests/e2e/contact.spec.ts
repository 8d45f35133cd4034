import { expect, test } from '@playwright/test'
import { actAsNewClient, outboxFor, storedContactMessages, uniqueEmail } from './support/clients.ts'
import { contactForm } from './support/contact-form.ts'
import { formatPrice, msg } from './support/i18n.ts'
import { openPublicPage } from './support/public-page.ts'

test.describe.configure({ mode: 'parallel' })

const supportEmail = 'support@vitrin.test'

test.describe('contact form in English', () => {
  test.use({ locale: 'en-US' })

  test('a message is sent, stored and forwarded to support, and another can follow', async ({
    page,
    request,
  }) => {
    const ip = await actAsNewClient(page)
    const email = uniqueEmail('enterprise')
    await openPublicPage(page, 'en', '/contact')
    const form = contactForm(page, 'en')
    await form.fill({
      name: 'Ayşe Yılmaz',
      email,
      company: 'Yılmaz Tekstil',
      phone: '+90 212 555 01 23',
      inquiryLabel: 'Enterprise sales',
      message: 'We list 400 products a month and would like a volume plan.',
    })

    // Hold the request so the sending state can be seen, then let it through to the real server.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/api/contact', async (route) => {
      await held
      await route.continue()
    })
    await form.submit.click()
    const sending = form.form.getByRole('button', { name: msg('en', 'contact.form.sending') })
    await expect(sending).toBeDisabled()
    release()

    await expect(form.successHeading).toHaveText('Message Sent!')
    await expect(page.getByText("We'll get back to you within 24 hours")).toBeVisible()

    const stored = await storedContactMessages(request, { email })
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({
      name: 'Ayşe Yılmaz',
      email,
      company: 'Yılmaz Tekstil',
      phone: '+90 212 555 01 23',
      inquiryType: 'enterprise',
      message: 'We list 400 products a month and would like a volume plan.',
      locale: 'en',
      clientIp: ip,
    })

    const notifications = (await outboxFor(request, supportEmail)).filter((e) => e.replyTo === email)
    expect(notifications).toHaveLength(1)
    expect(notifications[0]).toMatchObject({ kind: 'contact_notification', toAddress: supportEmail })
    expect(notifications[0]?.subject).toContain('Ayşe Yılmaz')
    expect(notifications[0]?.textBody).toContain('We list 400 products a month')

    await form.sendAnother.click()
    await expect(form.name).toHaveValue('')
    await expect(form.email).toHaveValue('')
    await expect(form.company).toHaveValue('')
    await expect(form.phone).toHaveValue('')
    await expect(form.inquiryType).toHaveValue('general')
    await expect(form.message).toHaveValue('')
    await expect(form.submit).toBeEnabled()
  })

  test('an empty form marks name, email and message, focuses the first field and sends nothing', async ({
    page,
    request,
  }) => {
    const ip = await actAsNewClient(page)
    const posts: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/api/contact')) posts.push(r.method())
    })
    await openPublicPage(page, 'en', '/contact')
    const form = contactForm(page, 'en')
    await form.submit.click()

    const required = msg('en', 'errors.field.required')
    for (const field of [form.name, form.email, form.message]) {
      await expect(field).toHaveAttribute('aria-invalid', 'true')
    }
    await expect(form.name).toHaveAccessibleDescription(required)
    await expect(form.message).toHaveAccessibleDescription(required)
    await expect(form.name).toBeFocused()
    for (const field of [form.company, form.phone]) {
      await expect(field).not.toHaveAttribute('aria-invalid', 'true')
    }

    // Fixing a field clears its error.
    await form.name.fill('Mehmet')
    await expect(form.name).not.toHaveAttribute('aria-invalid', 'true')
    await expect(form.name).toHaveAccessibleDescription('')

    expect(posts).toEqual([])
    const stored = await storedContactMessages(request)
    expect(stored.filter((m) => m.clientIp === ip)).toEqual([])
  })

  test('an empty email field is reported as required', async ({ page }) => {
    await openPublicPage(page, 'en', '/contact')
    const form = contactForm(page, 'en')
    await form.fill({ name: 'Mehmet', email: '', message: 'Hello' })
    await form.submit.click()
    await expect(form.email).toHaveAttribute('aria-invalid', 'true')
    await expect(form.email).toHaveAccessibleDescription(msg('en', 'errors.field.required'), {
      timeout: 2000,
    })
  })

  test('after sending, focus moves to the success message', async ({ page }) => {
    await actAsNewClient(page)
    await openPublicPage(page, 'en', '/contact')
    const form = contactForm(page, 'en')
    await form.fill({ name: 'Deniz', email: uniqueEmail('focus'), message: 'Hello' })
    await form.submit.click()
    await expect(form.successHeading).toBeFocused()
  })

  test('an invalid email address is pointed out on the email field', async ({ page }) => {
    await actAsNewClient(page)
    await openPublicPage(page, 'en', '/contact')
    const form = contactForm(page, 'en')
    await form.fill({ name: 'Mehmet', email: 'mehmet-at-example', message: 'Hello' })
    await form.submit.click()

    await expect(form.email).toHaveAccessibleDescription(msg('en', 'errors.field.email'))
    await expect(form.email).toBeFocused()
    await expect(form.name).not.toHaveAttribute('aria-invalid', 'true')
    await expect(form.message).not.toHaveAttribute('aria-invalid', 'true')
    await expect(form.successHeading).toHaveCount(0)
  })

  test('a server failure shows an alert and keeps what was typed', async ({ page }) => {
    await actAsNewClient(page)
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal error' } }),
      }),
    )
    await openPublicPage(page, 'en', '/contact')
    const form = contactForm(page, 'en')
    const email = uniqueEmail('failure')
    await form.fill({ name: 'Zeynep', email, inquiryLabel: 'Integrations', message: 'Do you support n11?' })
    await form.submit.click()

    await expect(form.alert).toHaveText('Failed to send message. Please try again.')
    await expect(form.name).toHaveValue('Zeynep')
    await expect(form.email).toHaveValue(email)
    await expect(form.inquiryType).toHaveValue('integration')
    await expect(form.message).toHaveValue('Do you support n11?')
    await expect(form.submit).toBeEnabled()
  })

  test('the sixth message from one client within ten minutes is refused with a clear message', async ({
    page,
    request,
  }) => {
    const ip = await actAsNewClient(page)
    const email = uniqueEmail('ratelimit')
    // Five messages from this client, sent straight to the API: all accepted.
    for (let n = 1; n <= 5; n += 1) {
      const response = await request.post('/api/contact', {
        headers: { 'X-Forwarded-For': ip },
        data: { name: 'Burak', email, message: `Message number ${n}`, locale: 'en' },
      })
      expect(response.status(), `message ${n}`).toBe(201)
    }

    // The sixth, through the form, is refused with the translated message.
    await openPublicPage(page, 'en', '/contact')
    const form = contactForm(page, 'en')
    await form.fill({ name: 'Burak', email, message: 'Message number 6' })
    await form.submit.click()

    await expect(form.alert).toHaveText(msg('en', 'errors.RATE_LIMITED'))
    await expect(form.message).toHaveValue('Message number 6')
    await expect(form.successHeading).toHaveCount(0)
    const stored = await storedContactMessages(request, { email })
    expect(stored.map((m) => m.message).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `Message number ${n}`))
  })

  test('contact details show the support address, chat hours, setup price and response times', async ({
    page,
  }) => {
    await openPublicPage(page, 'en', '/contact')
    const aside = page.getByRole('complementary')
    const mail = aside.getByRole('link', { name: supportEmail })
    await expect(mail).toHaveAttribute('href', `mailto:${supportEmail}`)
    await expect(aside).toContainText('9 AM - 6 PM EST')
    await expect(aside.getByTestId('setup-price')).toContainText('$2,500')
    await expect(aside).toContainText('Professional Setup')
    for (const time of ['24 hours', '4 hours', '2 hours']) {
      await expect(aside.getByText(`within ${time}`, { exact: true })).toBeVisible()
    }
  })
})

test.describe('contact form in Turkish', () => {
  test.use({ locale: 'tr-TR' })

  test('a message is sent in Turkish and stored with its language', async ({ page, request }) => {
    await actAsNewClient(page)
    const email = uniqueEmail('turkce')
    await openPublicPage(page, 'tr', '/contact')
    const form = contactForm(page, 'tr')
    await form.fill({
      name: 'İsmail Işık',
      email,
      inquiryLabel: msg('tr', 'contact.inquiry.setup'),
      message: 'Kurulum için fiyat alabilir miyim?',
    })
    await form.submit.click()

    await expect(form.successHeading).toHaveText('Mesajınız Gönderildi!')
    await expect(page.getByText(msg('tr', 'contact.success.body'))).toBeVisible()
    const stored = await storedContactMessages(request, { email })
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ name: 'İsmail Işık', inquiryType: 'setup', locale: 'tr' })
  })

  test('errors and contact details are in Turkish', async ({ page }) => {
    await actAsNewClient(page)
    await openPublicPage(page, 'tr', '/contact')
    const form = contactForm(page, 'tr')
    await form.submit.click()
    await expect(form.name).toHaveAccessibleDescription(msg('tr', 'errors.field.required'))

    const aside = page.getByRole('complementary')
    await expect(aside).toContainText('9 AM - 6 PM EST')
    await expect(aside.getByTestId('setup-price')).toContainText(formatPrice('tr', 2500))
    await expect(aside.getByRole('link', { name: supportEmail })).toHaveAttribute(
      'href',
      `mailto:${supportEmail}`,
    )
    for (const key of ['generalTime', 'enterpriseTime', 'setupTime']) {
      await expect(aside.getByText(msg('tr', `contact.response.${key}`), { exact: true })).toBeVisible()
    }
  })
})
