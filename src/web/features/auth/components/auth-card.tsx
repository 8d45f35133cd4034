import { type ReactNode, type RefObject, useEffect, useRef } from 'react'
import { Container } from '#web/components/ui/container.tsx'
import { LineIcon } from '#web/components/ui/icons.tsx'

export type AuthCardIcon = 'key' | 'lock' | 'user' | 'mail' | 'check' | 'alert'
export type AuthCardTone = 'brand' | 'success' | 'danger'

const iconPaths: Record<AuthCardIcon, ReactNode> = {
  key: (
    <>
      <circle cx="8" cy="15" r="4" />
      <path d="m10.85 12.15 8.65-8.65M16.5 6.5l3 3M14 9l2 2" />
    </>
  ),
  lock: (
    <>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </>
  ),
  user: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </>
  ),
  mail: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3 7 9 6 9-6" />
    </>
  ),
  check: (
    <>
      <circle cx="12" cy="12" r="10" />
      <path d="m7.5 12.5 3 3 6-6.5" />
    </>
  ),
  alert: (
    <>
      <circle cx="12" cy="12" r="10" />
      <path d="M12 7v6M12 16.5v.5" />
    </>
  ),
}

const toneClasses: Record<AuthCardTone, string> = {
  brand: 'bg-brand-100 text-brand-700',
  success: 'bg-emerald-100 text-emerald-700',
  danger: 'bg-red-100 text-red-700',
}

/**
 * The centred card every sign-in, sign-up, reset and access screen sits in: an icon, the page's
 * one h1, a short line, the content, and links below the card. With `focusTitle` the heading takes
 * focus when the card appears, so a screen reader announces a new step (e.g. "Account Created").
 */
export function AuthCard(props: {
  title: string
  titleId?: string
  subtitle?: ReactNode
  icon: AuthCardIcon
  tone?: AuthCardTone
  focusTitle?: boolean
  children?: ReactNode
  footer?: ReactNode
}) {
  const titleRef = useRef<HTMLHeadingElement>(null)
  useFocusOnMount(titleRef, props.focusTitle === true)
  return (
    <div className="bg-gradient-to-b from-brand-50 via-white to-white">
      <Container className="flex justify-center py-10 sm:py-16">
        <div className="w-full max-w-md">
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <span
              className={`inline-flex size-12 items-center justify-center rounded-full ${toneClasses[props.tone ?? 'brand']}`}
            >
              <LineIcon className="size-6" strokeWidth={2}>
                {iconPaths[props.icon]}
              </LineIcon>
            </span>
            <h1
              ref={titleRef}
              id={props.titleId}
              tabIndex={-1}
              className="mt-5 text-2xl font-bold tracking-tight text-balance text-slate-900 outline-none sm:text-3xl"
            >
              {props.title}
            </h1>
            {props.subtitle ? <div className="mt-2 text-slate-600">{props.subtitle}</div> : null}
            {props.children ? <div className="mt-6">{props.children}</div> : null}
          </div>
          {props.footer ? (
            <div className="mt-6 space-y-2 text-center text-sm text-slate-600">{props.footer}</div>
          ) : null}
        </div>
      </Container>
    </div>
  )
}

function useFocusOnMount(ref: RefObject<HTMLElement | null>, isWanted: boolean) {
  // Only on mount: a new step is a new card (callers give each step its own key).
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusing once when the card appears is the point
  useEffect(() => {
    if (isWanted) ref.current?.focus()
  }, [])
}
