import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { GenerateButton } from './generate-button.tsx'

function renderButton(startError: Parameters<typeof GenerateButton>[0]['startError']) {
  return renderWeb(
    <GenerateButton
      label="Generate"
      quota={{ kind: 'metered', left: 0, quota: 100, resource: 'images' }}
      hasPhoto
      isBusy={false}
      isStarting={false}
      disabled={false}
      startError={startError}
    />,
  )
}

describe('GenerateButton', () => {
  it('says why auto top-up refused and links to Buy More Credits', async () => {
    await renderButton('AUTO_TOPUP_CAP_REACHED')
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain("auto top-up has already bought this month's limit of packs")
    const link = alert.querySelector('a')
    expect(link?.getAttribute('href')).toBe('/billing#buy-credits')
    expect(link?.textContent).toBe('Buy More Credits')
  })

  it('offers no purchase for a refusal that buying credits does not fix', async () => {
    await renderButton('PROVIDER_UNAVAILABLE')
    expect(screen.getByRole('alert').querySelector('a')).toBeNull()
  })
})
