import { expect, type Page, test } from '@playwright/test'
import type { ApiKeysResponse } from '#shared/contracts/api-keys.ts'
import type { WebhookEndpointsResponse } from '#shared/contracts/webhooks.ts'
import enApiKeys from '#shared/i18n/locales/en/apiKeys.json' with { type: 'json' }
import enWebhooks from '#shared/i18n/locales/en/webhooks.json' with { type: 'json' }
import trApiKeys from '#shared/i18n/locales/tr/apiKeys.json' with { type: 'json' }
import trWebhooks from '#shared/i18n/locales/tr/webhooks.json' with { type: 'json' }
import { type Messages, translate } from '#shared/i18n/translate.ts'
import { appMsg, signUpWithPlan } from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { browserLocale, type Lang, langs } from './support/i18n.ts'

// Settings → API for the public API (issue 15), in both languages: API keys (create by keyboard,
// shown once, listed by prefix, used on /v1, revoked after asking, refused at once), what a plan
// without API access sees, and webhook endpoints (add, test event and its delivery log, disable and
// delete after asking). Expected text comes from the locale files.
// This app has no FETCH_ALLOW_PRIVATE_HOSTS, and nothing must be delivered: the endpoint is on the
// reserved .invalid domain (RFC 2606), which never resolves, so its test event fails honestly.

test.describe.configure({ mode: 'parallel' })

const catalogues: Record<Lang, Messages> = {
  en: { apiKeys: enApiKeys, webhooks: enWebhooks },
  tr: { apiKeys: trApiKeys, webhooks: trWebhooks },
}

/** `apiKeys.*` or `webhooks.*` as the app writes it; throws for a missing key. */
function m(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const text = translate(catalogues[lang], lang, key, vars)
  if (text === key) throw new Error(`no ${lang} message for ${key}`)
  return text
}

const endpointUrl = 'https://hooks.vitrin-e2e.invalid/vitrin/webhooks'

async function openApiTab(page: Page, lang: Lang) {
  await page.goto('/settings?tab=api')
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
  await expect(page.getByRole('heading', { level: 3, name: m(lang, 'apiKeys.title') })).toBeVisible()
}

function callUsage(page: Page, key: string) {
  return page.request.get('/v1/usage', { headers: { authorization: `Bearer ${key}` } })
}

for (const lang of langs) {
  test.describe(`Settings → API (${lang})`, () => {
    test.use({ locale: browserLocale[lang] })

    test('Pro: a key is created by keyboard, shown once, listed by its prefix, works on /v1, and is refused once revoked', async ({
      page,
    }) => {
      await signUpWithPlan(page, 'pro', `api-keys-${lang}`)
      await openApiTab(page, lang)
      await expect(page.getByText(m(lang, 'apiKeys.empty'), { exact: true })).toBeVisible()
      await expect(page.getByText(m(lang, 'apiKeys.upsell.title'))).toHaveCount(0)

      // Create, by keyboard alone.
      const create = page.getByRole('button', { name: m(lang, 'apiKeys.create'), exact: true })
      await create.focus()
      await page.keyboard.press('Enter')
      const createDialog = page.getByRole('dialog', { name: m(lang, 'apiKeys.createDialog.title') })
      await expect(createDialog).toBeVisible()
      const name = createDialog.getByLabel(m(lang, 'apiKeys.createDialog.nameLabel'))
      await expect(name).toBeFocused()
      // Submitting empty says why, in the field.
      await page.keyboard.press('Enter')
      await expect(createDialog.getByText(m(lang, 'apiKeys.createDialog.required'))).toBeVisible()
      const keyName = lang === 'en' ? 'Shopify sync' : 'Ürün aktarımı'
      await page.keyboard.type(keyName)
      await page.keyboard.press('Enter')

      // Shown once: the whole key, a copy button (focused first), and the warning.
      const secretDialog = page.getByRole('dialog', { name: m(lang, 'apiKeys.secretDialog.title') })
      await expect(secretDialog).toBeVisible()
      await expect(secretDialog).toHaveAccessibleDescription(m(lang, 'apiKeys.secretDialog.warning'))
      const secret = (await secretDialog.getByTestId('new-api-key').textContent()) ?? ''
      expect(secret).toMatch(/^vtr_[A-Za-z0-9_-]{20,}$/)
      const copy = secretDialog.getByRole('button', {
        name: appMsg(lang, 'studio.seo.copy', { what: m(lang, 'apiKeys.secretDialog.copyWhat') }),
      })
      await expect(copy).toBeFocused()
      await page.keyboard.press('Tab')
      const done = secretDialog.getByRole('button', { name: m(lang, 'apiKeys.secretDialog.done') })
      await expect(done).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(secretDialog).toHaveCount(0)
      await expect(create).toBeFocused()
      await expect(page.getByText(m(lang, 'apiKeys.createdMessage', { name: keyName }))).toBeVisible()
      // Gone for good: nowhere on the page once the dialog is closed.
      await expect(page.getByText(secret)).toHaveCount(0)

      // Listed with the start of the key.
      const { keys, maxLiveKeys } = (await (
        await page.request.get('/api/api-keys')
      ).json()) as ApiKeysResponse
      const [stored] = keys
      expect(keys).toHaveLength(1)
      expect(secret.startsWith(stored?.prefix ?? '-')).toBe(true)
      expect(stored?.prefix.length).toBeLessThan(secret.length)
      const card = page.getByTestId('api-key').filter({ hasText: keyName })
      await expect(card.getByText(`${stored?.prefix}…`, { exact: true })).toBeVisible()
      await expect(card.getByText(m(lang, 'apiKeys.active'), { exact: true })).toBeVisible()
      await expect(card.getByText(m(lang, 'apiKeys.neverUsed'), { exact: true })).toBeVisible()
      await expect(page.getByText(m(lang, 'apiKeys.count', { count: 1, max: maxLiveKeys }))).toBeVisible()

      // The key works on the public API.
      const used = await callUsage(page, secret)
      expect(used.status()).toBe(200)
      expect(((await used.json()) as { subscription: { planId: string } }).subscription.planId).toBe('pro')

      // Revoke, after asking; refused at once.
      await card.getByRole('button', { name: m(lang, 'apiKeys.revokeNamed', { name: keyName }) }).click()
      const confirm = page.getByRole('dialog', {
        name: m(lang, 'apiKeys.revokeDialog.title', { name: keyName }),
      })
      await expect(confirm.getByText(m(lang, 'apiKeys.revokeDialog.body'))).toBeVisible()
      await confirm.getByRole('button', { name: m(lang, 'apiKeys.revokeDialog.confirm') }).click()
      await expect(confirm).toHaveCount(0)
      await expect(page.getByText(m(lang, 'apiKeys.revokedMessage', { name: keyName }))).toBeVisible()
      await expect(card.getByText(m(lang, 'apiKeys.revoked'), { exact: true }).first()).toBeVisible()
      await expect(card.getByText(m(lang, 'apiKeys.revokedOn'), { exact: true }).last()).toBeVisible()
      await expect(
        card.getByRole('button', { name: m(lang, 'apiKeys.revokeNamed', { name: keyName }) }),
      ).toHaveCount(0)
      const refused = await callUsage(page, secret)
      expect(refused.status()).toBe(401)
    })

    test('Starter: sees what Pro would give, with no create or add button', async ({ page }) => {
      await signUpWithPlan(page, 'starter', `api-starter-${lang}`)
      await openApiTab(page, lang)
      const { maxLiveKeys } = (await (await page.request.get('/api/api-keys')).json()) as ApiKeysResponse
      await expect(page.getByRole('heading', { name: m(lang, 'apiKeys.upsell.title') })).toBeVisible()
      await expect(page.getByText(m(lang, 'apiKeys.upsell.keys', { max: maxLiveKeys }))).toBeVisible()
      await expect(page.getByRole('heading', { name: m(lang, 'webhooks.upsell.title') })).toBeVisible()
      await expect(page.getByText(m(lang, 'webhooks.upsell.events'))).toBeVisible()
      // Each section has its way to Pro.
      for (const section of ['apiKeys', 'webhooks']) {
        const region = page.getByRole('region', { name: m(lang, `${section}.title`), exact: true })
        await expect(
          region.getByRole('link', { name: m(lang, `${section}.upsell.upgrade`) }),
        ).toHaveAttribute('href', '/billing')
      }
      await expect(page.getByRole('button', { name: m(lang, 'apiKeys.create') })).toHaveCount(0)
      await expect(page.getByRole('button', { name: m(lang, 'webhooks.add') })).toHaveCount(0)
      await expectNoSeriousA11yViolations(page)
      // And the API agrees: no key for this plan.
      const refused = await page.request.post('/api/api-keys', { data: { name: 'nope' } })
      expect(refused.status()).toBe(403)
    })

    test('Pro: a webhook endpoint is added, its test event is logged with the failure, then it is disabled and deleted after asking', async ({
      page,
    }) => {
      await signUpWithPlan(page, 'pro', `webhooks-${lang}`)
      await openApiTab(page, lang)
      await expect(page.getByText(m(lang, 'webhooks.empty'), { exact: true })).toBeVisible()

      // Add: every event is checked at first; the secret is shown at once.
      await page.getByRole('button', { name: m(lang, 'webhooks.add'), exact: true }).click()
      const addDialog = page.getByRole('dialog', { name: m(lang, 'webhooks.addDialog.title') })
      await addDialog.getByLabel(m(lang, 'webhooks.addDialog.urlLabel')).fill(endpointUrl)
      for (const type of [
        'generation.succeeded',
        'generation.failed',
        'batch.completed',
        'publication.succeeded',
        'publication.failed',
      ]) {
        await expect(
          addDialog.getByRole('checkbox', { name: m(lang, `webhooks.events.${type}`) }),
        ).toBeChecked()
      }
      await addDialog.getByRole('button', { name: m(lang, 'webhooks.addDialog.submit') }).click()
      const secretDialog = page.getByRole('dialog', { name: m(lang, 'webhooks.secretDialog.title') })
      await expect(secretDialog.getByTestId('new-webhook-secret')).toHaveText(/^whsec_[A-Za-z0-9_-]{43}$/)
      await secretDialog.getByRole('button', { name: m(lang, 'webhooks.secretDialog.done') }).click()
      await expect(secretDialog).toHaveCount(0)

      // Listed, enabled, with its events.
      const card = page.getByTestId('webhook-endpoint').filter({ hasText: endpointUrl })
      await expect(card).toHaveCount(1)
      await expect(card.getByText(m(lang, 'webhooks.enabled'), { exact: true })).toBeVisible()
      await expect(card.getByText(m(lang, 'webhooks.events.batch.completed'), { exact: true })).toBeVisible()

      // A test event: queued, then tried against an address that does not resolve.
      await card.getByRole('button', { name: m(lang, 'webhooks.actions.sendTest') }).click()
      await expect(page.getByText(m(lang, 'webhooks.testQueued', { url: endpointUrl }))).toBeVisible()
      const showLog = card.getByRole('button', { name: m(lang, 'webhooks.actions.showDeliveries') })
      await showLog.click()
      const log = card.getByRole('list', { name: m(lang, 'webhooks.deliveries.title') })
      await expect(log.getByTestId('webhook-delivery')).toHaveCount(1)
      await expect(log.getByText(m(lang, 'webhooks.events.webhook.test'), { exact: true })).toBeVisible()
      // The log looks again by itself while the delivery is pending: the failed attempt shows up
      // as it is, to be retried, with no answer, and why.
      const delivery = log.getByTestId('webhook-delivery')
      await expect(delivery.getByText(m(lang, 'webhooks.deliveryErrors.URL_UNREACHABLE'))).toBeVisible({
        timeout: 20_000,
      })
      await expect(
        delivery.getByText(m(lang, 'webhooks.deliveries.statuses.pending'), { exact: true }),
      ).toBeVisible()
      await expect(
        delivery.getByText(m(lang, 'webhooks.deliveries.noResponse'), { exact: true }),
      ).toBeVisible()
      await expect(delivery.getByRole('definition').nth(1)).toHaveText('1')
      await expectNoSeriousA11yViolations(page)

      // Disable, after asking: the waiting retry is dropped and the log says so.
      await card.getByRole('button', { name: m(lang, 'webhooks.actions.disable'), exact: true }).click()
      const disable = page.getByRole('dialog', {
        name: m(lang, 'webhooks.disableDialog.title', { url: endpointUrl }),
      })
      await expect(disable.getByText(m(lang, 'webhooks.disableDialog.body'))).toBeVisible()
      await disable.getByRole('button', { name: m(lang, 'webhooks.disableDialog.confirm') }).click()
      await expect(disable).toHaveCount(0)
      await expect(page.getByText(m(lang, 'webhooks.disabledMessage', { url: endpointUrl }))).toBeVisible()
      await expect(card.getByText(m(lang, 'webhooks.disabled'), { exact: true })).toBeVisible()
      await expect(card.getByRole('button', { name: m(lang, 'webhooks.actions.sendTest') })).toHaveCount(0)
      await card.getByRole('button', { name: m(lang, 'webhooks.actions.hideDeliveries') }).click()
      await showLog.click()
      await expect(
        delivery.getByText(m(lang, 'webhooks.deliveries.statuses.failed'), { exact: true }),
      ).toBeVisible()
      await expect(delivery.getByText(m(lang, 'webhooks.deliveryErrors.ENDPOINT_DISABLED'))).toBeVisible()

      // Delete, after asking.
      await card.getByRole('button', { name: m(lang, 'webhooks.actions.delete'), exact: true }).click()
      const remove = page.getByRole('dialog', {
        name: m(lang, 'webhooks.deleteDialog.title', { url: endpointUrl }),
      })
      await remove.getByRole('button', { name: m(lang, 'webhooks.deleteDialog.confirm') }).click()
      await expect(remove).toHaveCount(0)
      await expect(card).toHaveCount(0)
      await expect(page.getByText(m(lang, 'webhooks.deletedMessage', { url: endpointUrl }))).toBeVisible()
      await expect(page.getByText(m(lang, 'webhooks.empty'), { exact: true })).toBeVisible()
      const after = (await (await page.request.get('/api/webhooks')).json()) as WebhookEndpointsResponse
      expect(after.endpoints).toHaveLength(0)
    })
  })
}
