import { type FormEvent, useState } from 'react'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import type { UploadProgress } from '#web/lib/api-client.ts'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { checkPhotos } from '../api/catalogue-api.ts'
import { checkPhotosFile } from '../file-checks.ts'
import { ImportPreview } from './import-preview.tsx'
import { type FileRefusal, PhotosZipField, refusalText } from './photos-zip-input.tsx'
import { UploadProgressBar } from './upload-progress.tsx'

/**
 * Step 3: the photos, checked under the confirmed columns. A list naming photo files needs their
 * ZIP (the one chosen in step 1, or another), sent with its progress shown; a list of image
 * links needs nothing, the server fetches them. The answer's problems (not in the ZIP,
 * unreachable, not an image) join the preview, and the user goes on without those rows.
 */
export function PhotosStep(props: {
  view: CatalogueImportView
  photos: File | null
  onPhotosChange: (photos: File | null) => void
  onChecked: (view: CatalogueImportView) => void
  onBack: () => void
  onContinue: () => void
}) {
  const { t } = useI18n()
  const { view } = props
  const [fileError, setFileError] = useState<FileRefusal | null>(null)
  const [sendError, setSendError] = useState<unknown>(null)
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const [isSending, setSending] = useState(false)

  function handleFile(file: File | undefined) {
    setSendError(null)
    const problem = file ? checkPhotosFile(file) : null
    setFileError(problem)
    props.onPhotosChange(file && !problem ? file : null)
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    if (isSending) return
    if (view.needsZip && !props.photos) {
      setFileError((current) => current ?? 'required')
      return
    }
    setSending(true)
    setSendError(null)
    setProgress({ loaded: 0, total: props.photos?.size ?? 0 })
    try {
      props.onChecked(
        await checkPhotos(view.batch.id, view.needsZip ? props.photos : null, { onProgress: setProgress }),
      )
    } catch (error) {
      setSendError(error)
    } finally {
      setSending(false)
    }
  }

  const afterUpload = view.needsZip ? t('catalogue.photos.checkingZip') : t('catalogue.photos.fetching')

  if (view.photosChecked) {
    const problemRows = view.batch.rowCount - view.batch.productCount
    return (
      <div className="space-y-8">
        <ImportPreview view={view} mapping={view.mapping} />
        <div className="flex flex-col gap-3 border-t border-slate-200 pt-5">
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <Button variant="secondary" onClick={props.onBack}>
              {t('catalogue.photos.back')}
            </Button>
            <Button
              onClick={props.onContinue}
              disabled={view.batch.productCount === 0}
              aria-describedby={view.batch.productCount === 0 ? 'catalogue-photos-blocked' : undefined}
              data-testid="photos-continue"
            >
              {problemRows > 0 ? t('catalogue.mapping.continueWithout') : t('catalogue.mapping.continue')}
            </Button>
          </div>
          {view.batch.productCount === 0 ? (
            <p id="catalogue-photos-blocked" className="text-sm text-slate-600 sm:text-right">
              {t('catalogue.mapping.blockedNoProducts')}
            </p>
          ) : null}
        </div>
      </div>
    )
  }

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate className="space-y-5">
      {sendError ? <FormAlert message={t(errorMessageKey(sendError))} className="mb-0" /> : null}
      {view.needsZip ? (
        <PhotosZipField
          description={
            props.photos
              ? t('catalogue.photos.zipChosen', { name: props.photos.name })
              : t('catalogue.photos.zipNeeded')
          }
          error={fileError ? refusalText(t, fileError, 'catalogue.photos.zipRequired') : undefined}
          isSending={isSending}
          onFile={handleFile}
          testId="photos-step-input"
        />
      ) : (
        <p className="text-sm text-slate-700">{t('catalogue.photos.linksBody')}</p>
      )}
      {isSending ? (
        view.needsZip ? (
          <UploadProgressBar progress={progress} afterUpload={afterUpload} />
        ) : (
          <p className="text-sm text-slate-600" aria-live="polite">
            {afterUpload}
          </p>
        )
      ) : null}
      <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-5 sm:flex-row sm:justify-between">
        <Button variant="secondary" onClick={props.onBack} disabled={isSending}>
          {t('catalogue.photos.back')}
        </Button>
        <SubmitButton isBusy={isSending} busyLabel={afterUpload} size="md" className="w-full sm:w-auto">
          {view.needsZip ? t('catalogue.photos.submitZip') : t('catalogue.photos.submitLinks')}
        </SubmitButton>
      </div>
    </form>
  )
}
