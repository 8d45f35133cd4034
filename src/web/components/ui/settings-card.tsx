import type { ReactNode, RefObject } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { type GroupWith, useI18n } from '#web/lib/i18n.tsx'

/**
 * A card of the settings page that manages a list (API keys, webhook endpoints): its heading,
 * which takes focus back after a dialog ends, a line of introduction, then the list and its actions.
 * The heading and the introduction are `<keys>.title` and `<keys>.intro`.
 */
export function SettingsCard(props: {
  id: string
  keys: GroupWith<'title'> & GroupWith<'intro'>
  headingRef: RefObject<HTMLHeadingElement | null>
  children: ReactNode
}) {
  const { t } = useI18n()
  return (
    <section
      aria-labelledby={`${props.id}-title`}
      className="max-w-2xl space-y-4 rounded-2xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h3
        ref={props.headingRef}
        id={`${props.id}-title`}
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900 outline-none"
      >
        {t(`${props.keys}.title` as TKey)}
      </h3>
      <p className="text-sm text-slate-700">{t(`${props.keys}.intro` as TKey)}</p>
      {props.children}
    </section>
  )
}
