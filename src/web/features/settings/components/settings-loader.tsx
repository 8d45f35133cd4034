import type { ReactNode } from 'react'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import { Button } from '#web/components/ui/button.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { errorMessage } from '../error-message.ts'
import type { SettingsState } from '../hooks/use-settings.ts'

/** Shows a spinner while settings load, an error with Try again if they fail, else the panel. */
export function SettingsLoader(props: {
  state: SettingsState
  onRetry: () => void
  children: (settings: SettingsResponse) => ReactNode
}) {
  const { t } = useI18n()
  const { state } = props
  if (state.status === 'loading') {
    return (
      <div className="flex min-h-32 items-center text-brand-700">
        <Spinner label={t('settings.loading')} className="size-6" />
      </div>
    )
  }
  if (state.status === 'error') {
    return (
      <div role="alert" className="max-w-xl rounded-2xl border border-red-200 bg-red-50 p-5 text-red-900">
        <p className="font-semibold">{t('settings.error.title')}</p>
        <p className="mt-1 text-sm">{errorMessage(t, state.error)}</p>
        <Button variant="secondary" className="mt-4" onClick={props.onRetry}>
          {t('settings.error.retry')}
        </Button>
      </div>
    )
  }
  return props.children(state.settings)
}
