import { useEffect, useState } from 'react'
import { useI18n } from '#web/lib/i18n.tsx'
import { CopyIcon } from './icons.tsx'

/** Copies `text` to the clipboard and says so for a moment (also to screen readers). */
export function CopyButton(props: { text: string; what: string; testId?: string }) {
  const { t } = useI18n()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')

  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 2000)
    return () => clearTimeout(timer)
  }, [state])

  async function copy() {
    try {
      await navigator.clipboard.writeText(props.text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={copy}
        data-testid={props.testId}
        className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <CopyIcon className="h-3.5 w-3.5" />
        {state === 'copied' ? t('studio.seo.copied') : t('studio.seo.copy', { what: props.what })}
      </button>
      <span role="status" className={state === 'failed' ? 'text-xs text-red-700' : 'sr-only'}>
        {state === 'copied' ? t('studio.seo.copied') : state === 'failed' ? t('studio.seo.copyFailed') : ''}
      </span>
    </span>
  )
}
