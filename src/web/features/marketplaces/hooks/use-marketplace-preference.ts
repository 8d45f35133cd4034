import { useRef, useState } from 'react'
import type { PreferencesResponse } from '#shared/contracts/marketplaces.ts'
import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { getPreferences, updatePreferences } from '../api/marketplaces-api.ts'

export type SaveState = 'idle' | 'saving' | 'saved' | 'failed'

/**
 * The user's default marketplace profile (GET /api/preferences) and saving a new one (PATCH).
 * Only the latest save may set the state, so quick changes end on the last choice's outcome.
 */
export function useMarketplacePreference() {
  const preferences = useResource<PreferencesResponse>(getPreferences)
  const [saveState, setSaveState] = useState<SaveState>('idle')
  // The value being saved, shown until the answer comes (undefined: nothing on its way).
  const [pending, setPending] = useState<MarketplaceId | null | undefined>(undefined)
  const latestSave = useRef(0)

  async function save(profile: MarketplaceId | null): Promise<void> {
    const attempt = latestSave.current + 1
    latestSave.current = attempt
    setSaveState('saving')
    setPending(profile)
    try {
      const saved = await updatePreferences({ marketplaceProfile: profile })
      if (latestSave.current !== attempt) return
      preferences.replace(saved)
      setSaveState('saved')
    } catch {
      if (latestSave.current !== attempt) return
      setSaveState('failed')
    }
    setPending(undefined)
  }

  return { preferences, saveState, pending, save }
}
