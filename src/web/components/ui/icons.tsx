import type { ReactNode } from 'react'

// The app's one icon set. Every icon is decorative (aria-hidden): the text beside it, or the
// control's accessible name, says what it means. Line icons draw on a 24-unit grid in the current
// text colour; solid icons fill a 20-unit grid. Sizes and colours come from `className`.

/** `strokeWidth` thickens or thins a line icon's strokes (solid icons have none). */
export type IconProps = { className?: string; strokeWidth?: number }

/** A line icon: the shapes given as children, stroked in the current colour. */
export function LineIcon(props: IconProps & { children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={props.className}
      fill="none"
      stroke="currentColor"
      strokeWidth={props.strokeWidth ?? 1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {props.children}
    </svg>
  )
}

/**
 * A line icon drawn by `shapes`, made once at module level for each icon below; `strokeWidth` is
 * its default, which a caller may still change.
 */
function lineIcon(shapes: ReactNode, strokeWidth?: number) {
  return (props: IconProps) => (
    <LineIcon className={props.className} strokeWidth={props.strokeWidth ?? strokeWidth}>
      {shapes}
    </LineIcon>
  )
}

/** A line icon in a ring: the path `d` drawn inside a circle (a state: done, failed, none). */
function circleIcon(d: string) {
  return lineIcon(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d={d} />
    </>,
    2,
  )
}

/** A solid icon: the path `d` filled in the current colour. */
function solidIcon(d: string) {
  return (props: IconProps) => (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={props.className} fill="currentColor">
      <path d={d} />
    </svg>
  )
}

// Line icons.

export const CheckIcon = lineIcon(<path d="m5 12.5 4.5 4.5 9-10.5" />, 3)

export const CrossIcon = lineIcon(<path d="m6 6 12 12m0-12L6 18" />, 3)

export const DashIcon = lineIcon(<path d="M6 12h12" />, 3)

export const MenuIcon = lineIcon(<path d="M4 7h16M4 12h16M4 17h16" />, 2)

/** An eye; `crossed` strikes it through (a password shown / hidden, "check by eye"). */
export function EyeIcon(props: IconProps & { crossed?: boolean }) {
  return (
    <LineIcon className={props.className} strokeWidth={props.strokeWidth ?? 2}>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {props.crossed ? <path d="m4 4 16 16" /> : null}
    </LineIcon>
  )
}

export const CopyIcon = lineIcon(
  <>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V5a1 1 0 0 1 1-1h10" />
  </>,
)

/** A bookmark; `filled` for a saved result. */
export function BookmarkIcon(props: IconProps & { filled?: boolean }) {
  return (
    <LineIcon className={props.className} strokeWidth={props.strokeWidth}>
      <path d="M6 3h12v18l-6-4-6 4V3Z" fill={props.filled ? 'currentColor' : 'none'} />
    </LineIcon>
  )
}

export const TrashIcon = lineIcon(
  <path d="M4 7h16M10 11v6m4-6v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />,
)

export const DownloadIcon = lineIcon(<path d="M12 4v12m0 0-4-4m4 4 4-4M4 20h16" />)

export const UploadIcon = lineIcon(
  <path d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />,
)

/** A picture frame with a hill and a sun: an empty place where an image will be. */
export const ImageIcon = lineIcon(
  <>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="m3 16 5-5 4 4 3-3 6 6" />
    <circle cx="15.5" cy="8.5" r="1.5" fill="currentColor" stroke="none" />
  </>,
  1.6,
)

/** Lines of text: an SEO copy result. */
export const TextIcon = lineIcon(<path d="M6 6h12M6 10h12M6 14h8M6 18h6" />, 2)

export const PlayIcon = lineIcon(<path d="M8 5.5v13l10-6.5-10-6.5Z" fill="currentColor" stroke="none" />)

export const WarningIcon = lineIcon(
  <path d="M12 9v4.5m0 3.5v.01M10.3 3.9 2.4 17.6A2 2 0 0 0 4.1 20.6h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />,
)

export const CheckCircleIcon = circleIcon('m8 12.5 2.5 2.5L16 9.5')

export const CrossCircleIcon = circleIcon('m9 9 6 6m0-6-6 6')

export const DashCircleIcon = circleIcon('M8 12h8')

/** An exclamation mark in a ring: something went wrong (a link that no longer works). */
export const ExclamationCircleIcon = circleIcon('M12 7v6M12 16.5v.5')

export const KeyIcon = lineIcon(
  <>
    <circle cx="8" cy="15" r="4" />
    <path d="m10.85 12.15 8.65-8.65M16.5 6.5l3 3M14 9l2 2" />
  </>,
)

export const LockIcon = lineIcon(
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </>,
)

export const UserIcon = lineIcon(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </>,
)

export const MailIcon = lineIcon(
  <>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3 7 9 6 9-6" />
  </>,
)

/** What Vitrin offers, one drawing each, the same on the landing page and the features page. */
const offerPaths = {
  image: 'M4 5h16v14H4zM4 15l4-4 4 4 3-3 5 5',
  video: 'M4 6h11v12H4zM15 10l5-3v10l-5-3',
  seo: 'M5 6h14M5 10h14M5 14h9M5 18h6',
  fashion: 'M9 4l3 2 3-2 5 4-3 3-2-1v10H9V10l-2 1-3-3z',
  library: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  plans: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M3 12h18M12 3c3.5 3.5 3.5 14.5 0 18M12 3c-3.5 3.5-3.5 14.5 0 18',
}

export type OfferIconName = keyof typeof offerPaths

export function OfferIcon(props: IconProps & { name: OfferIconName }) {
  return (
    <LineIcon className={props.className} strokeWidth={props.strokeWidth}>
      <path d={offerPaths[props.name]} />
    </LineIcon>
  )
}

// Solid icons: one path each on the 20-unit grid.

const solidPaths = {
  alertCircle:
    'M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm-.9 4.5h1.8v5.5H9.1V6Zm.9 9a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z',
  alertTriangle:
    'M8.3 2.9a2 2 0 0 1 3.4 0l6.1 10.6A2 2 0 0 1 16.1 16.5H3.9a2 2 0 0 1-1.7-3L8.3 2.9ZM10 7a1 1 0 0 0-1 1v3a1 1 0 1 0 2 0V8a1 1 0 0 0-1-1Zm0 8a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2Z',
  blocked:
    'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16ZM4 10a6 6 0 0 1 9.7-4.7l-8.4 8.4A6 6 0 0 1 4 10Zm2.3 4.7 8.4-8.4a6 6 0 0 1-8.4 8.4Z',
  tick: 'M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z',
  chevronDown:
    'M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z',
  globe:
    'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm5.9 7h-2.4a12.6 12.6 0 0 0-1-4.4A6 6 0 0 1 15.9 9ZM10 4.1c.6.8 1.3 2.5 1.5 4.9h-3c.2-2.4.9-4.1 1.5-4.9ZM7.5 4.6a12.6 12.6 0 0 0-1 4.4H4.1a6 6 0 0 1 3.4-4.4ZM4.1 11h2.4c.1 1.7.5 3.2 1 4.4A6 6 0 0 1 4.1 11Zm5.9 4.9c-.6-.8-1.3-2.5-1.5-4.9h3c-.2 2.4-.9 4.1-1.5 4.9Zm2.5-.5c.5-1.2.9-2.7 1-4.4h2.4a6 6 0 0 1-3.4 4.4Z',
}

export const AlertCircleIcon = solidIcon(solidPaths.alertCircle)
export const AlertTriangleIcon = solidIcon(solidPaths.alertTriangle)
export const BlockedIcon = solidIcon(solidPaths.blocked)
/** A bold tick for lists of what a plan or feature includes. */
export const TickIcon = solidIcon(solidPaths.tick)
export const ChevronDownIcon = solidIcon(solidPaths.chevronDown)
export const GlobeIcon = solidIcon(solidPaths.globe)
