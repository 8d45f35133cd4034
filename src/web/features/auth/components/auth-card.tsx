import { type ReactNode, type RefObject, useEffect, useRef } from 'react'
import { Container } from '#web/components/ui/container.tsx'
import {
  CheckCircleIcon,
  ExclamationCircleIcon,
  type IconProps,
  KeyIcon,
  LockIcon,
  MailIcon,
  UserIcon,
} from '#web/components/ui/icons.tsx'

export type AuthCardIcon = 'key' | 'lock' | 'user' | 'mail' | 'check' | 'alert'
export type AuthCardTone = 'brand' | 'success' | 'danger'

const icons: Record<AuthCardIcon, (props: IconProps) => ReactNode> = {
  key: KeyIcon,
  lock: LockIcon,
  user: UserIcon,
  mail: MailIcon,
  check: CheckCircleIcon,
  alert: ExclamationCircleIcon,
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
  const Icon = icons[props.icon]
  useFocusOnMount(titleRef, props.focusTitle === true)
  return (
    <div className="bg-gradient-to-b from-brand-50 via-white to-white">
      <Container className="flex justify-center py-10 sm:py-16">
        <div className="w-full max-w-md">
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <span
              className={`inline-flex size-12 items-center justify-center rounded-full ${toneClasses[props.tone ?? 'brand']}`}
            >
              <Icon className="size-6" strokeWidth={2} />
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
