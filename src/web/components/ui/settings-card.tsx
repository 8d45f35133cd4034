import type { ReactNode, RefObject } from 'react'

/**
 * A card of the settings page that manages a list (API keys, webhook endpoints): its heading,
 * which takes focus back after a dialog ends, a line of introduction, then the list and its actions.
 */
export function SettingsCard(props: {
  id: string
  title: string
  intro: string
  headingRef: RefObject<HTMLHeadingElement | null>
  children: ReactNode
}) {
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
        {props.title}
      </h3>
      <p className="text-sm text-slate-700">{props.intro}</p>
      {props.children}
    </section>
  )
}
