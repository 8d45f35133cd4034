/** A spinning ring; pass a label when it is the only thing telling the user to wait. */
export function Spinner(props: { label?: string; className?: string }) {
  return (
    <span role={props.label ? 'status' : undefined} className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className={`inline-block size-5 animate-spin rounded-full border-2 border-current border-t-transparent ${props.className ?? ''}`}
      />
      {props.label ? <span className="sr-only">{props.label}</span> : null}
    </span>
  )
}
