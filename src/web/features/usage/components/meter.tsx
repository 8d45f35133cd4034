import { type ReactNode, useId } from 'react'
import type { QuotaLevel } from '#shared/quota.ts'

/**
 * A dashboard meter on the dark usage panel: its label and value on one line, then the bar, named
 * by the label, filled to `percent` in the level's colour (`fillClass`), with its value said in
 * words for assistive technology (`valueText`), then a note (`children`).
 */
export function Meter(props: {
  testId: string
  level: QuotaLevel
  label: string
  /** The value beside the label, with its own test id. */
  value: ReactNode
  used: number
  max: number
  valueText: string
  percent: number
  fillClass: string
  fillTestId?: string
  children: ReactNode
}) {
  const labelId = useId()
  return (
    <div data-testid={props.testId} data-level={props.level}>
      <div className="flex items-baseline justify-between gap-3">
        <span id={labelId} className="text-sm font-medium text-brand-100">
          {props.label}
        </span>
        {props.value}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot take the level colours reliably across browsers */}
      <div
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={props.max}
        aria-valuenow={Math.min(props.used, props.max)}
        aria-valuetext={props.valueText}
        className="mt-3 h-3 overflow-hidden rounded-full bg-white/15"
      >
        <div
          data-testid={props.fillTestId}
          className={`h-full rounded-full transition-[width] ${props.fillClass}`}
          style={{ width: `${props.percent}%` }}
        />
      </div>
      {props.children}
    </div>
  )
}
