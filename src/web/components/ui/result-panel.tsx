import { type ReactNode, useId } from 'react'

const tones = { plain: 'bg-white', muted: 'bg-slate-50' }

/**
 * A panel under a finished result (the marketplace check, Publish): a region named by its title,
 * with a line saying what it is for, then its content.
 */
export function ResultPanel(props: {
  title: string
  intro: string
  tone: keyof typeof tones
  testId: string
  children: ReactNode
}) {
  const id = useId()
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`space-y-4 rounded-2xl border border-slate-200 p-4 ${tones[props.tone]}`}
      data-testid={props.testId}
    >
      <div>
        <h3 id={`${id}-title`} className="font-semibold text-slate-900">
          {props.title}
        </h3>
        <p className="text-sm text-slate-600">{props.intro}</p>
      </div>
      {props.children}
    </section>
  )
}
