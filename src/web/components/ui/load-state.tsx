import type { ReactNode } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import type { MessageVars } from '#shared/i18n/translate.ts'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { type GroupWith, useI18n } from '#web/lib/i18n.tsx'
import type { ResourceState } from '#web/lib/use-resource.ts'
import { Button } from './button.tsx'
import { Spinner } from './spinner.tsx'

/**
 * What loaded data looks like before it is there: `loading` (a skeleton in the shape of what is
 * coming; by default a spinner announcing `loadingLabel`), or when it failed, `errorTitle` with
 * Try again (the resource's reload); else `children` with the data.
 *
 * `panel` (the default) is for what a page or tab is about: a red box announced as an alert,
 * with the reason in words (the error code's message). `inline` is for a section of a page that
 * shows other things too: one quiet line and a link-like Try again, inside `className`.
 */
export function LoadState<T>(props: {
  /** What is loaded, and how to ask again (Try again). */
  resource: ResourceState<T> & { reload: () => void }
  /** What the default spinner says while loading. */
  loadingLabel?: string
  /** Shown instead of the spinner while loading; carries its own spoken status. */
  loading?: ReactNode
  errorTitle: string
  retryLabel: string
  /** `h1` where the error stands in for the page's heading. */
  errorTitleAs?: 'h1' | 'p'
  variant?: 'panel' | 'inline'
  className?: string
  children: (data: T) => ReactNode
}) {
  const { t } = useI18n()
  const { resource: state } = props
  if (state.status === 'ready') return props.children(state.data)

  if (state.status === 'loading') {
    return (
      props.loading ?? (
        <div className="flex min-h-40 items-center justify-center text-brand-700">
          <Spinner label={props.loadingLabel} className="size-8" />
        </div>
      )
    )
  }

  if (props.variant === 'inline') {
    return (
      <div className={`flex flex-wrap items-center gap-3 text-sm ${props.className ?? ''}`}>
        <p>{props.errorTitle}</p>
        <button
          type="button"
          onClick={state.reload}
          className="rounded font-semibold underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          {props.retryLabel}
        </button>
      </div>
    )
  }

  const Title = props.errorTitleAs ?? 'p'
  return (
    <div
      role="alert"
      className={`max-w-xl rounded-2xl border border-red-200 bg-red-50 p-6 text-red-900 ${props.className ?? ''}`}
    >
      <Title className={Title === 'h1' ? 'text-lg font-semibold' : 'font-semibold'}>{props.errorTitle}</Title>
      <p className="mt-1 text-sm">{t(errorMessageKey(state.error))}</p>
      <Button variant="secondary" className="mt-4" onClick={state.reload}>
        {props.retryLabel}
      </Button>
    </div>
  )
}

/** A message group with the three things a LoadState says: `.loading`, `.error.title`, `.error.retry`. */
type LoadGroup = GroupWith<'loading'> & GroupWith<'error.title'> & GroupWith<'error.retry'>

/** A LoadState's words from one message group (see LoadGroup). */
export function loadText(t: (key: TKey, vars?: MessageVars) => string, group: LoadGroup) {
  // LoadGroup holds each key to the group, which TypeScript cannot see through the template.
  return {
    loadingLabel: t(`${group}.loading` as TKey),
    errorTitle: t(`${group}.error.title` as TKey),
    retryLabel: t(`${group}.error.retry` as TKey),
  }
}
