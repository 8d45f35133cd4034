import { useId, useState } from 'react'
import { catalogueLimits } from '#shared/catalogue/limits.ts'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField } from '#web/components/ui/form-field.tsx'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import type { UploadProgress } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
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
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const form = useForm<{ list: File | null; photos: File | null }, FileRefusal>({
    initialValues: { list: null, photos: null },
    // A file is checked as soon as it is chosen; a missing list is said once a send was tried.
    validateOn: 'change',
    validate: ({ list, photos }, { isAttempted }) => ({
      list: list ? (checkListFile(list) ?? undefined) : isAttempted ? 'required' : undefined,
      photos: photos ? (checkPhotosFile(photos) ?? undefined) : undefined,
    }),
    describe: (refusal) => refusalText(t, refusal, 'catalogue.file.listRequired'),
    action: async ({ list, photos }) => {
      // The check refuses a send without a list; this only tells the types.
      if (!list) return
      setProgress({ loaded: 0, total: list.size })
      props.onImported(await importProductList(list, { onProgress: setProgress }), photos)
    },
  })
  const isSending = form.isBusy
  const alertId = useId()

  /** A file chosen (or none): another try, so the last send's error goes. */
  function choose(name: 'list' | 'photos', file: File | undefined) {
    form.setValue(name, file ?? null)
    form.clearFormError()
  }

  const isChecking = isSending && uploadPercent(progress) >= 100
  const unreadableLine =
    form.formErrorCode === 'CATALOGUE_FILE_UNREADABLE' ? form.formErrorDetails?.line : undefined

  return (
    <form {...form.formProps} className="space-y-5" aria-describedby={form.formError ? alertId : undefined}>
      {form.formError ? (
        <FormAlert
          id={alertId}
          message={`${form.formError}${
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
        error={form.errorText('list')}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            name="list"
            accept={listAccept}
            disabled={isSending}
            required
            onChange={(event) => choose('list', event.currentTarget.files?.[0])}
            className={fileInputClasses}
            data-testid="list-input"
          />
        )}
      </FormField>
      <PhotosZipField
        hint={t('catalogue.file.optional')}
        description={t('catalogue.file.photosHint')}
        error={form.errorText('photos')}
        isSending={isSending}
        onFile={(file) => choose('photos', file)}
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
