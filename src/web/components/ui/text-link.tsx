import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'

// The look of a link among words, by what it stands on. Each is underlined, so a link is told
// apart by more than its colour.
const toneClasses = {
  /** On white or a light panel. */
  brand: 'rounded font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900',
  /** On a tinted notice (an upsell, a missing plan): a shade darker to keep its contrast. */
  notice: 'rounded font-semibold text-brand-800 underline underline-offset-4 hover:text-brand-950',
  /** In a sentence that has its own colour, which the link keeps. */
  inherit: 'font-semibold underline underline-offset-4 hover:text-brand-700',
} as const

/**
 * A link to a page inside text or under it; a public page's path is put in the reader's
 * language. `className` places it (margin, size, display).
 */
export function TextLink(props: {
  to: string
  tone?: keyof typeof toneClasses
  className?: string
  children: ReactNode
}) {
  const localized = useLocalizedHref()
  const tone = toneClasses[props.tone ?? 'brand']
  return (
    <Link to={localized(props.to)} className={props.className ? `${props.className} ${tone}` : tone}>
      {props.children}
    </Link>
  )
}
