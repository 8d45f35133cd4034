import type { RefObject } from 'react'
import { SecretDialog } from '#web/components/ui/secret-dialog.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * The one time a key is shown whole: the warning is the dialog's description (read out with its
 * title), focus starts on the copy button, and closing forgets the key for good.
 */
export function SecretKeyDialog(props: {
  name: string
  secret: string
  onClose: () => void
  finalFocusRef?: RefObject<HTMLElement | null>
}) {
  const { t } = useI18n()
  return (
    <SecretDialog
      title={t('apiKeys.secretDialog.title')}
      description={<p className="font-medium text-amber-900">{t('apiKeys.secretDialog.warning')}</p>}
      label={t('apiKeys.secretDialog.keyLabel', { name: props.name })}
      secret={props.secret}
      testId="new-api-key"
      secretClassName="text-slate-900"
      copyWhat={t('apiKeys.secretDialog.copyWhat')}
      doneLabel={t('apiKeys.secretDialog.done')}
      onClose={props.onClose}
      finalFocusRef={props.finalFocusRef}
    />
  )
}
