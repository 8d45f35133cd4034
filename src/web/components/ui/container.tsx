import type { ReactNode } from 'react'

/** Centres page content with the site's horizontal padding and maximum width. */
export function Container(props: { children: ReactNode; className?: string }) {
  return (
    <div className={`mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8 ${props.className ?? ''}`}>
      {props.children}
    </div>
  )
}
