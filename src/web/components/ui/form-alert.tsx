import { AlertCircleIcon } from './icons.tsx'
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
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-red-600" />
      <span>{props.message}</span>
    </p>
  )
}
