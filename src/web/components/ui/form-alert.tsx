/**
 * The red banner of a form, announced as soon as it appears (role=alert). `className` places it
 * (default: above the fields, with room below).
 */
export function FormAlert(props: { id?: string; message: string; className?: string }) {
  return (
    <p
      id={props.id}
      role="alert"
      className={`flex gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 ${props.className ?? 'mb-5'}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="mt-0.5 size-4 shrink-0 text-red-600"
        fill="currentColor"
      >
        <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm-.9 4.5h1.8v5.5H9.1V6Zm.9 9a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z" />
      </svg>
      <span>{props.message}</span>
    </p>
  )
}
