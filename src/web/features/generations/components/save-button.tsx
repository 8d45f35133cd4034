import { useState } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { BookmarkIcon } from '#web/components/ui/icons.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { setSaved } from '../api/generations-api.ts'

/** Save to library (and undo). Shows the server's answer, not a guess. */
export function SaveButton(props: {
  generation: GenerationView
  onChange?: (generation: GenerationView) => void
}) {
  const { t } = useI18n()
  const [isSaved, setIsSaved] = useState(props.generation.isSaved)
  const [isBusy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function toggle() {
    setBusy(true)
    setError(null)
    try {
      const updated = await setSaved(props.generation.id, !isSaved)
      setIsSaved(updated.isSaved)
      props.onChange?.(updated)
    } catch (caught) {
      setError(t(errorMessageKey(caught)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={toggle}
        disabled={isBusy}
        aria-pressed={isSaved}
        data-testid="save-button"
        className={buttonClasses('secondary', 'md', isSaved ? 'border-emerald-600 text-emerald-800' : '')}
      >
        <BookmarkIcon className="h-4 w-4" filled={isSaved} />
        {isBusy ? t('studio.result.saving') : isSaved ? t('studio.result.saved') : t('studio.result.save')}
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </>
  )
}
