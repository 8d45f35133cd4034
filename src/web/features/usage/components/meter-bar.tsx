/**
 * The bar of a dashboard meter: a meter named by its label, filled to `percent` in the level's
 * colour (`fillClass`), with its value said in words for assistive technology.
 */
export function MeterBar(props: {
  labelId: string
  used: number
  max: number
  valueText: string
  percent: number
  fillClass: string
  fillTestId?: string
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot take the level colours reliably across browsers
    <div
      role="meter"
      aria-labelledby={props.labelId}
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
  )
}
