import { useState } from 'react'
import type { SettingsResponse, UpdateSettingsRequest } from '#shared/contracts/settings.ts'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { updateSettings } from '../api/settings-api.ts'

/** Stores one switch with PATCH /api/settings: busy while it saves, then "Saved." or the error. */
export function useSettingToggle(onSaved: (settings: SettingsResponse) => void) {
  const { t } = useI18n()
  const [isBusy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState('')

  async function save(patch: UpdateSettingsRequest) {
    setBusy(true)
    setError(null)
    setStatus('')
    try {
      onSaved(await updateSettings(patch))
      setStatus(t('settings.toggle.saved'))
    } catch (caught) {
      setError(t(errorMessageKey(caught)))
    } finally {
      setBusy(false)
    }
  }

  return { isBusy, error, status, save }
}
