/**
 * What the last action on a section said: its error, announced at once (role=alert), and its
 * outcome, announced politely (role=status, always in the page so it is heard when it changes).
 * `className` places both lines.
 */
export function ActionOutcome(props: { error: string | null; status: string; className?: string }) {
  const place = props.className ? `${props.className} ` : ''
  return (
    <>
      {props.error ? (
        <p role="alert" className={`${place}text-sm text-red-700`}>
          {props.error}
        </p>
      ) : null}
      <p role="status" className={`${place}text-sm text-emerald-800`}>
        {props.status}
      </p>
    </>
  )
}
