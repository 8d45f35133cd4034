import { type DragEvent, useId, useRef, useState } from 'react'
import { intlTag, type Locale } from '#shared/i18n/locales.ts'
import { UploadIcon, WarningIcon } from '#web/components/ui/icons.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { acceptAttribute, sizeInMb } from '../file-checks.ts'
import type { PhotoState } from '../hooks/use-photo-upload.ts'

/** What can be done with a chosen photo: choose another in its place, or take it away. */
const photoActions: { name: 'replace' | 'remove'; look: string }[] = [
  {
    name: 'replace',
    look: 'border border-slate-300 text-slate-800 hover:bg-slate-50 focus-visible:outline-brand-700',
  },
  { name: 'remove', look: 'text-red-700 hover:bg-red-50 focus-visible:outline-red-700' },
]

/**
 * Choose one photo by click, keyboard or drag-and-drop. Shows the preview, name and size in MB
 * with Replace and Remove once chosen, and the FILE_TYPE_INVALID / FILE_TOO_LARGE messages.
 */
export function PhotoDropZone(props: {
  label: string
  hint?: string
  state: PhotoState
  onChoose: (file: File) => void
  onRemove: () => void
  disabled?: boolean
  testId: string
}) {
  const { t, locale } = useI18n()
  const inputId = useId()
  const errorId = useId()
  const hintId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const choose = () => inputRef.current?.click()
  const onAction = { replace: choose, remove: props.onRemove }
  const [isOver, setOver] = useState(false)
  const { state } = props
  const error = state.status === 'empty' || state.status === 'failed' ? state.error : null

  function pick(files: FileList | null | undefined) {
    const file = files?.[0]
    if (file) props.onChoose(file)
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault()
    setOver(false)
    if (!props.disabled) pick(event.dataTransfer?.files)
  }

  const describedBy = [props.hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')

  return (
    <div data-testid={props.testId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <label htmlFor={inputId} className="block text-sm font-semibold text-slate-900">
          {props.label}
        </label>
        <span className="text-xs text-slate-600">{t('studio.upload.rules')}</span>
      </div>
      {props.hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {props.hint}
        </p>
      ) : null}
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={acceptAttribute}
        className="sr-only"
        disabled={props.disabled}
        aria-describedby={describedBy || undefined}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          pick(event.currentTarget.files)
          // The same file chosen again after Remove must fire a change.
          event.currentTarget.value = ''
        }}
      />
      {state.status === 'empty' ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the input above is the keyboard and screen-reader control
        <div
          onDragEnter={(event) => {
            event.preventDefault()
            setOver(true)
          }}
          onDragOver={(event) => {
            event.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          data-testid={`${props.testId}-target`}
          className={`mt-2 flex min-h-40 flex-col items-center justify-center rounded-2xl border-2 border-dashed px-4 py-8 text-center transition-colors ${
            isOver ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-slate-50'
          }`}
        >
          <UploadIcon className="h-8 w-8 text-slate-500" />
          <p className="mt-2 text-sm text-slate-700">
            {t('studio.upload.drop')}{' '}
            <button
              type="button"
              disabled={props.disabled}
              onClick={choose}
              className="rounded font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              {t('studio.upload.choose')}
            </button>
          </p>
        </div>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: dropping another photo here replaces it
        <div
          onDragOver={(event) => event.preventDefault()}
          onDrop={onDrop}
          data-testid={`${props.testId}-target`}
          className="mt-2 flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-3"
        >
          <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-slate-100">
            {state.status === 'failed' ? (
              <WarningIcon className="h-8 w-8 text-red-600" />
            ) : (
              <img
                src={state.previewUrl}
                alt={t('studio.upload.previewAlt', { name: state.file.name })}
                className="h-full w-full object-cover"
              />
            )}
          </div>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-slate-900" data-testid={`${props.testId}-name`}>
              {state.file.name}
            </p>
            <p className="text-xs text-slate-600" data-testid={`${props.testId}-size`}>
              {t('studio.upload.sizeMb', { size: formatMb(locale, state.file.size) })}
              {state.status === 'uploading' ? (
                <span className="ml-2 inline-flex items-center gap-1">
                  <Spinner className="size-3!" /> {t('studio.upload.uploading')}
                </span>
              ) : state.status === 'ready' ? (
                <span className="ml-2 text-emerald-700">✓ {t('studio.upload.uploaded')}</span>
              ) : null}
            </p>
            <div className="mt-2 flex gap-2">
              {photoActions.map((action) => (
                <button
                  key={action.name}
                  type="button"
                  disabled={props.disabled}
                  onClick={onAction[action.name]}
                  className={`rounded-md px-2.5 py-1 text-xs font-semibold focus-visible:outline-2 disabled:opacity-60 ${action.look}`}
                >
                  {t(`studio.upload.${action.name}`)}
                </button>
              ))}
            </div>
          </div>
        </div>
      )}
      {error ? (
        <p
          id={errorId}
          role="alert"
          className="mt-2 text-sm font-medium text-red-700"
          data-testid={`${props.testId}-error`}
        >
          {t(`errors.${error}`)}
        </p>
      ) : null}
    </div>
  )
}

/** "2.4" in English, "2,4" in Turkish. */
function formatMb(locale: Locale, bytes: number): string {
  return new Intl.NumberFormat(intlTag[locale], {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(sizeInMb(bytes))
}
