import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { ApiKeysResponse, ApiKeyView, CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { ApiKeysSection } from './api-keys-section.tsx'

const fetchMock = stubFetchForEachTest()

const existing: ApiKeyView = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Shopify sync',
  prefix: 'vtr_AbCd1234',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
}
const secret = `vtr_NewKey99${'x'.repeat(35)}`
const made: CreateApiKeyResponse = {
  key: {
    id: '22222222-2222-4222-8222-222222222222',
    name: 'Catalogue script',
    prefix: secret.slice(0, 12),
    createdAt: '2026-11-20T09:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  },
  secret,
}

function pro(keys: ApiKeyView[] = [existing]): ApiKeysResponse {
  return { hasApiAccess: true, maxLiveKeys: 20, keys }
}

/** Answers the list with `list`, and POST / DELETE with what is given. */
function serve(list: ApiKeysResponse, answers: { create?: Response; revoke?: Response } = {}) {
  fetchMock.mockImplementation(async (input, init) => {
    const method = init?.method ?? 'GET'
    if (method === 'GET' && input === '/api/api-keys') return json(200, list)
    if (method === 'POST' && input === '/api/api-keys' && answers.create) return answers.create
    if (method === 'DELETE' && answers.revoke) return answers.revoke
    throw new Error(`unexpected ${method} ${String(input)}`)
  })
}

function calls(method: string) {
  return fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method)
}

describe('ApiKeysSection', () => {
  it('lists keys by name and first characters, never more', async () => {
    serve(pro([existing, { ...made.key, lastUsedAt: '2026-11-21T08:30:00.000Z' }]))
    await renderWeb(<ApiKeysSection />)
    const list = await screen.findByRole('list', { name: 'Your API keys' })
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(within(items[0] as HTMLElement).getByText('Shopify sync')).toBeTruthy()
    expect(within(items[0] as HTMLElement).getByText('vtr_AbCd1234…')).toBeTruthy()
    expect(within(items[0] as HTMLElement).getByText('Never')).toBeTruthy()
    expect(within(items[1] as HTMLElement).getByText('vtr_NewKey99…')).toBeTruthy()
    expect(items[1]?.querySelectorAll('time')).toHaveLength(2)
    expect(document.body.textContent).not.toContain(secret)
    expect(screen.getByText('2 of 20 keys in use')).toBeTruthy()
  })

  it('creates a key and shows it once, with a copy button and the warning', async () => {
    serve(pro(), { create: json(201, made) })
    const user = userEvent.setup()
    await renderWeb(<ApiKeysSection />)

    await user.click(await screen.findByRole('button', { name: 'Create API key' }))
    const form = screen.getByRole('dialog', { name: 'Create an API key' })
    // A name is needed; nothing is sent without one.
    await user.click(within(form).getByRole('button', { name: 'Create key' }))
    expect(within(form).getByText('Give the key a name.')).toBeTruthy()
    expect(calls('POST')).toHaveLength(0)

    await user.type(within(form).getByLabelText('Name'), '  Catalogue script ')
    await user.click(within(form).getByRole('button', { name: 'Create key' }))

    const shown = await screen.findByRole('dialog', { name: 'Your new API key' })
    expect(JSON.parse(String(calls('POST')[0]?.[1]?.body))).toEqual({ name: 'Catalogue script' })
    expect(shown.getAttribute('aria-describedby')).toBeTruthy()
    expect(within(shown).getByText(/You won't be able to see it again/)).toBeTruthy()
    expect(within(shown).getByTestId('new-api-key').textContent).toBe(secret)
    const copy = within(shown).getByRole('button', { name: 'Copy key' })
    expect(document.activeElement).toBe(copy)
    await user.click(copy)
    expect(await navigator.clipboard.readText()).toBe(secret)

    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    // Gone for good: only its first characters stay, in the list, newest first.
    expect(document.body.textContent).not.toContain(secret)
    const names = screen.getAllByTestId('api-key').map((item) => item.querySelector('p')?.textContent)
    expect(names).toEqual(['Catalogue script', 'Shopify sync'])
    expect(screen.getByText('vtr_NewKey99…')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toContain('“Catalogue script” was created')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create API key' }))
  })

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    serve(pro(), {
      create: json(409, { error: { code: 'API_KEY_LIMIT_REACHED', message: 'At most 20 live API keys' } }),
    })
    const user = userEvent.setup()
    await renderWeb(<ApiKeysSection />)
    await user.click(await screen.findByRole('button', { name: 'Create API key' }))
    const form = screen.getByRole('dialog', { name: 'Create an API key' })
    await user.type(within(form).getByLabelText('Name'), 'one more')
    await user.click(within(form).getByRole('button', { name: 'Create key' }))
    expect((await within(form).findByRole('alert')).textContent).toContain(
      'most API keys an account can have',
    )
    expect(screen.queryByRole('dialog', { name: 'Your new API key' })).toBeNull()
  })

  it('asks before revoking, and revokes only on confirmation', async () => {
    const revokedAt = '2026-11-22T12:00:00.000Z'
    serve(pro(), { revoke: json(200, { key: { ...existing, revokedAt } }) })
    const user = userEvent.setup()
    await renderWeb(<ApiKeysSection />)

    const revoke = await screen.findByRole('button', { name: 'Revoke Shopify sync' })
    await user.click(revoke)
    const ask = screen.getByRole('dialog', { name: 'Revoke “Shopify sync”?' })
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }))
    expect(calls('DELETE')).toHaveLength(0)
    expect(document.activeElement).toBe(revoke)

    await user.click(revoke)
    await user.click(
      within(screen.getByRole('dialog', { name: 'Revoke “Shopify sync”?' })).getByRole('button', {
        name: 'Revoke key',
      }),
    )
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(calls('DELETE')[0]?.[0]).toBe(`/api/api-keys/${existing.id}`)
    expect(screen.queryByRole('button', { name: 'Revoke Shopify sync' })).toBeNull()
    expect(screen.getAllByText('Revoked').length).toBeGreaterThan(0)
    expect(screen.getByRole('status').textContent).toContain('“Shopify sync” was revoked')
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Vitrin API keys' }))
  })

  it('shows other plans what Pro gives and the way to it, with no create button', async () => {
    serve({ hasApiAccess: false, maxLiveKeys: 20, keys: [] })
    await renderWeb(<ApiKeysSection />)
    expect(await screen.findByRole('heading', { name: 'API access comes with the Pro plan' })).toBeTruthy()
    expect(screen.getByText(/Create up to 20 API keys/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'See plans and upgrade to Pro' }).getAttribute('href')).toBe(
      '/billing',
    )
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull()
    expect(screen.queryByRole('list', { name: 'Your API keys' })).toBeNull()
  })

  it('lets a downgraded account see and revoke the keys it kept, in Turkish too', async () => {
    serve({ hasApiAccess: false, maxLiveKeys: 20, keys: [existing] })
    await renderWeb(<ApiKeysSection />, { locale: 'tr' })
    expect(await screen.findByRole('heading', { name: 'API erişimi Pro planla gelir' })).toBeTruthy()
    expect(screen.getByText(/bu anahtarlar şimdilik reddediliyor/)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Shopify sync anahtarını iptal et' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'API anahtarı oluştur' })).toBeNull()
    expect(screen.getByRole('link', { name: "Planları gör ve Pro'ya geç" }).getAttribute('href')).toBe(
      '/billing',
    )
  })

  it('says when the list is full instead of offering Create', async () => {
    const full = Array.from({ length: 20 }, (_, index) => ({
      ...existing,
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      name: `key ${index}`,
    }))
    serve(pro(full))
    await renderWeb(<ApiKeysSection />)
    expect(await screen.findByText(/You have 20 live keys, the most an account can have/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull()
  })
})
