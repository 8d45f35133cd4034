import type { FieldControl } from '#web/components/ui/form-field.tsx'
import { photosAccept } from '../file-checks.ts'

/** The look of the catalogue's file inputs: the browser's button drawn as part of the field. */
export const fileInputClasses =
  'block w-full rounded-lg border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-3 file:py-2 file:font-semibold file:text-slate-900 hover:file:bg-slate-100 aria-[invalid=true]:border-red-600'

/** The ZIP of a list's photos, on the file step and the photos step: the file chosen goes to `onFile`. */
export function PhotosZipInput(props: {
  control: FieldControl
  isSending: boolean
  onFile: (file: File | undefined) => void
  testId: string
}) {
  return (
    <input
      {...props.control}
      type="file"
      name="photos"
      accept={photosAccept}
      disabled={props.isSending}
      onChange={(event) => props.onFile(event.currentTarget.files?.[0])}
      className={fileInputClasses}
      data-testid={props.testId}
    />
  )
}
