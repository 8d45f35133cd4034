import { useState } from 'react'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import type { UploadProgress } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
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
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const form = useForm<{ photos: File | null }, FileRefusal>({
    initialValues: { photos: props.photos },
    // A ZIP is checked as soon as it is chosen; a missing one is said once a send was tried.
    validateOn: 'change',
    validate: ({ photos }, { isAttempted }) =>
      view.needsZip
        ? { photos: photos ? (checkPhotosFile(photos) ?? undefined) : isAttempted ? 'required' : undefined }
        : {},
    describe: (refusal) => refusalText(t, refusal, 'catalogue.photos.zipRequired'),
    // The answer replaces the form with the preview; it is not left busy behind it.
    repeatable: true,
    action: async ({ photos }) => {
      setProgress({ loaded: 0, total: photos?.size ?? 0 })
      props.onChecked(
        await checkPhotos(view.batch.id, view.needsZip ? photos : null, { onProgress: setProgress }),
      )
    },
  })
  const isSending = form.isBusy

  /** A ZIP chosen (or none): the wizard keeps it only once it passes the check. */
  function handleFile(file: File | undefined) {
    form.setValue('photos', file ?? null)
    form.clearFormError()
    props.onPhotosChange(file && !checkPhotosFile(file) ? file : null)
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
    <form {...form.formProps} className="space-y-5">
      {form.formError ? <FormAlert message={form.formError} className="mb-0" /> : null}
      {view.needsZip ? (
        <PhotosZipField
          description={
            props.photos
              ? t('catalogue.photos.zipChosen', { name: props.photos.name })
              : t('catalogue.photos.zipNeeded')
          }
          error={form.errorText('photos')}
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
