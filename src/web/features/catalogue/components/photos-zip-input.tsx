import type { ReactNode } from 'react'
import type { ErrorCode } from '#shared/errors.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { type FieldControl, FormField } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { photosAccept } from '../file-checks.ts'

/** Why a chosen file was refused: not chosen though needed (the field's own words), or the check's code. */
export type FileRefusal = ErrorCode | 'required'

/** A refusal in words: `requiredKey` for a missing file, else the code's message. */
export function refusalText(t: (key: TKey) => string, refusal: FileRefusal, requiredKey: TKey): string {
  return refusal === 'required' ? t(requiredKey) : t(`errors.${refusal}`)
}

/** The look of the catalogue's file inputs: the browser's button drawn as part of the field. */
export const fileInputClasses =
  'block w-full rounded-lg border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-3 file:py-2 file:font-semibold file:text-slate-900 hover:file:bg-slate-100 aria-[invalid=true]:border-red-600'

/**
 * The photos ZIP's field on the file step and the photos step: its label, what each step says
 * under it, the reason a file was refused, and the input.
 */
export function PhotosZipField(props: {
  hint?: string
  description: ReactNode
  error: string | undefined
  isSending: boolean
  onFile: (file: File | undefined) => void
  testId: string
}) {
  const { t } = useI18n()
  const { hint, description, error, ...input } = props
  return (
    <FormField label={t('catalogue.file.photosLabel')} hint={hint} description={description} error={error}>
      {(control) => <PhotosZipInput control={control} {...input} />}
    </FormField>
  )
}

/** The ZIP of a list's photos: the file chosen goes to `onFile`. */
function PhotosZipInput(props: {
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
