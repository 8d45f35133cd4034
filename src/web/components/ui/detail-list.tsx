import type { ReactNode } from 'react'
import { formatDateTime } from '#web/lib/format-time.ts'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * Facts about one item as a description list: each a label (dt) over its value (dd). `className`
 * lays out the list, `valueClassName` styles every value.
 */
export function DetailList(props: {
  className: string
  valueClassName?: string
  items: { label: string; value: ReactNode }[]
}) {
  return (
    <dl className={props.className}>
      {props.items.map((item) => (
        <div key={item.label}>
          <dt className="text-slate-600">{item.label}</dt>
          <dd className={props.valueClassName}>{item.value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A moment as the reader's date and time, machine-readable in `dateTime`. */
export function DateTime(props: { iso: string }) {
  const { locale } = useI18n()
  return <time dateTime={props.iso}>{formatDateTime(locale, props.iso)}</time>
}
