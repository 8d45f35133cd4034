import { type ReactNode, useId } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { type GroupWith, useI18n } from '#web/lib/i18n.tsx'

const tones = { plain: 'bg-white', muted: 'bg-slate-50' }

/**
 * A panel under a finished result (the marketplace check, Publish): a region named by its title,
 * with a line saying what it is for (`<messages>.title` and `.intro`), then its content.
 */
export function ResultPanel(props: {
  messages: GroupWith<'title'> & GroupWith<'intro'>
  tone: keyof typeof tones
  testId: string
  children: ReactNode
}) {
  const { t } = useI18n()
  const id = useId()
  // The group holds both keys, which TypeScript cannot see through the template.
  const text = (suffix: 'title' | 'intro') => t(`${props.messages}.${suffix}` as TKey)
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`space-y-4 rounded-2xl border border-slate-200 p-4 ${tones[props.tone]}`}
      data-testid={props.testId}
    >
      <div>
        <h3 id={`${id}-title`} className="font-semibold text-slate-900">
          {text('title')}
        </h3>
        <p className="text-sm text-slate-600">{text('intro')}</p>
      </div>
      {props.children}
    </section>
  )
}
