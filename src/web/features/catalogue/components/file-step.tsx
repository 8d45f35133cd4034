import { type FormEvent, useId, useRef, useState } from 'react'
import { catalogueLimits } from '#shared/catalogue/limits.ts'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { ErrorCode } from '#shared/errors.ts'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField } from '#web/components/ui/form-field.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import { ApiError, type UploadProgress } from '#web/lib/api-client.ts'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { importProductList } from '../api/catalogue-api.ts'
import { checkListFile, checkPhotosFile, listAccept } from '../file-checks.ts'
import { type FileRefusal, fileInputClasses, PhotosZipField, refusalText } from './photos-zip-input.tsx'
import { UploadProgressBar, uploadPercent } from './upload-progress.tsx'

const MB = 1024 * 1024

/**
 * Step 1: the list (CSV or XLSX) and, when the list names photo files, their ZIP. Both are checked
 * here before anything is sent. The list goes up at once (its progress shown) and the server's
 * reading of it (a draft batch) comes back; the ZIP stays in the browser until the columns are
 * confirmed, because the server checks photos under the mapping (step 3).
 */
export function FileStep(props: { onImported: (view: CatalogueImportView, photos: File | null) => void }) {
  const { t, formatNumber } = useI18n()
  const [list, setList] = useState<File | null>(null)
  const [photos, setPhotos] = useState<File | null>(null)
  const [listError, setListError] = useState<FileRefusal>(null)
  const [photosError, setPhotosError] = useState<ErrorCode | null>(null)
  const [sendError, setSendError] = useState<unknown>(null)
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const [isSending, setSending] = useState(false)
  const listRef = useRef<HTMLInputElement>(null)
  const alertId = useId()

  function handleList(file: File | undefined) {
    setSendError(null)
    const problem = file ? checkListFile(file) : null
    setListError(problem)
    setList(file && !problem ? file : null)
  }

  function handlePhotos(file: File | undefined) {
    setSendError(null)
    const problem = file ? checkPhotosFile(file) : null
    setPhotosError(problem)
    setPhotos(file && !problem ? file : null)
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    if (isSending) return
    if (!list || photosError) {
      if (!list && !listError) setListError('required')
      listRef.current?.focus()
      return
    }
    setSending(true)
    setSendError(null)
    setProgress({ loaded: 0, total: list.size })
    try {
      props.onImported(await importProductList(list, { onProgress: setProgress }), photos)
    } catch (error) {
      setSendError(error)
      setSending(false)
    }
  }

  const isChecking = isSending && uploadPercent(progress) >= 100
  const unreadableLine =
    sendError instanceof ApiError && sendError.code === 'CATALOGUE_FILE_UNREADABLE'
      ? sendError.details?.line
      : undefined

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      className="space-y-5"
      aria-describedby={sendError ? alertId : undefined}
    >
      {sendError ? (
        <FormAlert
          id={alertId}
          message={`${t(errorMessageKey(sendError))}${
            unreadableLine ? ` ${t('catalogue.file.errorLine', { line: unreadableLine })}` : ''
          }`}
          className="mb-0"
        />
      ) : null}
      <FormField
        label={t('catalogue.file.listLabel')}
        description={t('catalogue.file.listHint', {
          size: formatNumber(catalogueLimits.maxListFileBytes / MB),
          rows: formatNumber(catalogueLimits.maxProductRows),
        })}
        error={refusalText(t, listError, 'catalogue.file.listRequired')}
      >
        {(control) => (
          <input
            {...control}
            ref={listRef}
            type="file"
            name="list"
            accept={listAccept}
            disabled={isSending}
            required
            onChange={(event) => handleList(event.currentTarget.files?.[0])}
            className={fileInputClasses}
            data-testid="list-input"
          />
        )}
      </FormField>
      <PhotosZipField
        hint={t('catalogue.file.optional')}
        description={t('catalogue.file.photosHint')}
        error={photosError ? t(`errors.${photosError}`) : undefined}
        isSending={isSending}
        onFile={handlePhotos}
        testId="photos-input"
      />
      {isSending ? (
        <UploadProgressBar progress={progress} afterUpload={t('catalogue.file.checking')} />
      ) : null}
      <SubmitButton
        isBusy={isSending}
        busyLabel={isChecking ? t('catalogue.file.checking') : t('catalogue.file.sending')}
        size="md"
        className="w-full sm:w-auto"
      >
        {t('catalogue.file.submit')}
      </SubmitButton>
    </form>
  )
}
