import type { RefObject } from 'react'
import { Button } from '#web/components/ui/button.tsx'
import { CopyButton } from '#web/components/ui/copy-button.tsx'
import { ModalDialog } from '#web/components/ui/modal-dialog.tsx'
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
    <ModalDialog
      title={t('apiKeys.secretDialog.title')}
      description={<p className="font-medium text-amber-900">{t('apiKeys.secretDialog.warning')}</p>}
      onClose={props.onClose}
      finalFocusRef={props.finalFocusRef}
    >
      <div className="mt-5 space-y-3">
        <p className="text-sm font-medium text-slate-900">
          {t('apiKeys.secretDialog.keyLabel', { name: props.name })}
        </p>
        <code
          data-testid="new-api-key"
          className="block select-all break-all rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-sm text-slate-900"
        >
          {props.secret}
        </code>
        <CopyButton text={props.secret} what={t('apiKeys.secretDialog.copyWhat')} />
      </div>
      <div className="mt-6 flex flex-col sm:flex-row sm:justify-end">
        <Button onClick={props.onClose}>{t('apiKeys.secretDialog.done')}</Button>
      </div>
    </ModalDialog>
  )
}
