import type { ReactNode } from 'react'

const tones = {
  /** A state beside a name: "Trial", "Current plan". */
  soft: 'bg-brand-100 px-2.5 text-brand-800',
  /** A highlight in a plan summary: "Most popular". */
  strong: 'bg-brand-700 px-2 text-white',
}

/** A small rounded label beside a name; `className` places it. */
export function Badge(props: { tone?: keyof typeof tones; className?: string; children: ReactNode }) {
  const place = props.className ? ` ${props.className}` : ''
  return (
    <span className={`rounded-full py-0.5 text-xs font-semibold ${tones[props.tone ?? 'soft']}${place}`}>
      {props.children}
    </span>
  )
}
