import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { MarketplaceCardSummary } from './marketplace-card-summary.tsx'

describe('MarketplaceCardSummary', () => {
  it('shows a skeleton while loading, with the checking text for screen readers only', async () => {
    const { container } = await renderWeb(
      <MarketplaceCardSummary profile="trendyol" state={{ status: 'loading' }} onOpen={() => {}} />,
    )
    expect(screen.getByTestId('marketplace-card-summary-loading')).toBeTruthy()
    expect(screen.getByText('Checking for Trendyol…').className).toContain('sr-only')
    // Never a count while loading.
    expect(container.textContent).not.toMatch(/\d/)
    expect(screen.queryByRole('button')).toBeNull()
  })

  it('shows the counts to fix and to check in their tone, labelled in full, and opens the result', async () => {
    const onOpen = vi.fn()
    const user = userEvent.setup()
    await renderWeb(
      <MarketplaceCardSummary
        profile="trendyol"
        state={{ status: 'ready', summary: { pass: 5, warn: 1, fail: 2 } }}
        onOpen={onOpen}
      />,
    )
    const button = screen.getByRole('button', {
      name: 'Trendyol checklist: 2 to fix, 1 to check, 5 passing. Open the result to see it.',
    })
    expect(button.textContent).toBe('Trendyol2 to fix1 to check')
    expect(button.className).toContain('bg-red-50')
    await user.tab()
    expect(document.activeElement).toBe(button)
    await user.keyboard('{Enter}')
    expect(onOpen).toHaveBeenCalledTimes(1)
  })

  it.each([
    {
      tone: 'green',
      summary: { pass: 7, warn: 0, fail: 0 },
      text: 'Amazon.com.trAll 7 pass',
      look: 'bg-emerald-50',
    },
    {
      tone: 'amber',
      summary: { pass: 4, warn: 3, fail: 0 },
      text: 'Amazon.com.tr3 to check',
      look: 'bg-amber-50',
    },
  ])('is $tone when the summary is $summary', async ({ summary, text, look }) => {
    await renderWeb(
      <MarketplaceCardSummary profile="amazon-tr" state={{ status: 'ready', summary }} onOpen={() => {}} />,
    )
    const badge = screen.getByTestId('marketplace-card-summary')
    expect(badge.textContent).toBe(text)
    expect(badge.className).toContain(look)
  })

  it.each([
    {
      what: 'without a preferred marketplace',
      profile: null,
      state: { status: 'ready', summary: { pass: 1, warn: 0, fail: 0 } },
    },
    { what: 'without a summary', profile: 'n11', state: { status: 'none' } },
  ] as const)('shows nothing $what', async ({ profile, state }) => {
    const { container } = await renderWeb(
      <MarketplaceCardSummary profile={profile} state={state} onOpen={() => {}} />,
    )
    expect(container.textContent).toBe('')
  })

  it('reads in Turkish', async () => {
    await renderWeb(
      <MarketplaceCardSummary
        profile="trendyol"
        state={{ status: 'ready', summary: { pass: 3, warn: 2, fail: 1 } }}
        onOpen={() => {}}
      />,
      { locale: 'tr' },
    )
    const button = screen.getByRole('button', {
      name: 'Trendyol kontrol listesi: 1 düzeltilecek, 2 kontrol edilecek, 3 uygun. Görmek için sonucu açın.',
    })
    expect(button.textContent).toBe('Trendyol1 düzeltilecek2 kontrol edilecek')
  })
})
