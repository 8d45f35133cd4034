import { useEffect, useId, useRef, useState } from 'react'
import {
  type CatalogueField,
  type ColumnMapping,
  imageFields,
  listingFields,
  missingRequiredFields,
  requiredFields,
  textFields,
} from '#shared/catalogue/columns.ts'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { updateMapping } from '../api/catalogue-api.ts'
import { ImportPreview } from './import-preview.tsx'

const notUsed = ''

/** The fields in the three groups the step asks about, each with its legend, hint and columns. */
const fieldGroups: {
  legend: TKey
  hint?: TKey
  fields: readonly CatalogueField[]
  columns: string
}[] = [
  { legend: 'catalogue.mapping.textLegend', fields: textFields, columns: 'sm:grid-cols-2 lg:grid-cols-3' },
  {
    legend: 'catalogue.mapping.listingLegend',
    hint: 'catalogue.mapping.listingHint',
    fields: listingFields,
    columns: 'sm:grid-cols-2 lg:grid-cols-3',
  },
  {
    legend: 'catalogue.mapping.imageLegend',
    hint: 'catalogue.mapping.imageHint',
    fields: imageFields,
    columns: 'grid-cols-2 lg:grid-cols-4',
  },
]

/**
 * Step 2: which column each field comes from, starting at the server's suggestion, and the
 * preview that follows it. Each change is sent at once (PUT …/mapping); the latest answer
 * replaces the preview, and an older one still on its way is dropped.
 */
export function MappingStep(props: {
  view: CatalogueImportView
  onChange: (view: CatalogueImportView) => void
  onContinue: () => void
  onChooseAnother: () => void
  isLeaving: boolean
}) {
  const { t } = useI18n()
  const { view } = props
  const [mapping, setMapping] = useState<ColumnMapping>(view.mapping)
  const [isUpdating, setUpdating] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const requestRef = useRef<AbortController | null>(null)
  const reasonId = useId()

  useEffect(() => () => requestRef.current?.abort(), [])

  async function handleChange(field: CatalogueField, value: string) {
    const next: ColumnMapping = { ...mapping }
    if (value === notUsed) delete next[field]
    else next[field] = Number(value)
    setMapping(next)
    setError(null)
    requestRef.current?.abort()
    const request = new AbortController()
    requestRef.current = request
    setUpdating(true)
    try {
      const answer = await updateMapping(view.batch.id, { mapping: next }, request.signal)
      if (request.signal.aborted) return
      setMapping(answer.mapping)
      props.onChange(answer)
    } catch (caught) {
      if (request.signal.aborted) return
      // What is shown must be what the server holds: back to its mapping.
      setMapping(view.mapping)
      setError(caught)
    } finally {
      if (requestRef.current === request) {
        requestRef.current = null
        setUpdating(false)
      }
    }
  }

  const missing = missingRequiredFields(mapping)
  const blockedReason =
    missing.length > 0
      ? t('catalogue.mapping.blockedRequired', {
          fields: missing.map((field) => t(`catalogue.fields.${field}`)).join(', '),
        })
      : isUpdating
        ? t('catalogue.mapping.blockedUpdating')
        : view.batch.productCount === 0
          ? t('catalogue.mapping.blockedNoProducts')
          : null

  function fieldSelect(field: CatalogueField) {
    const isRequired = (requiredFields as readonly string[]).includes(field)
    const column = mapping[field]
    return (
      <FormField
        key={field}
        label={t(`catalogue.fields.${field}`)}
        hint={isRequired ? t('catalogue.mapping.required') : undefined}
        isInvalid={isRequired && column === undefined}
      >
        {(control) => (
          <select
            {...control}
            aria-required={isRequired || undefined}
            value={column === undefined ? notUsed : String(column)}
            onChange={(event) => void handleChange(field, event.currentTarget.value)}
            className={inputClasses}
            data-testid={`map-${field}`}
          >
            <option value={notUsed}>{t('catalogue.mapping.notUsed')}</option>
            {view.headers.map((header, index) => (
              // Columns are told apart by position: two headers may read the same.
              // biome-ignore lint/suspicious/noArrayIndexKey: the index is the column
              <option key={index} value={String(index)}>
                {header.trim() || t('catalogue.mapping.unnamedColumn', { number: index + 1 })}
              </option>
            ))}
          </select>
        )}
      </FormField>
    )
  }

  return (
    <div className="space-y-8">
      <div className="space-y-5">
        <p className="text-sm text-slate-600">{t('catalogue.mapping.intro')}</p>
        {error ? (
          <FormAlert
            message={`${t('catalogue.mapping.error')} ${t(errorMessageKey(error))}`}
            className="mb-0"
          />
        ) : null}
        {fieldGroups.map((group) => (
          <fieldset key={group.legend}>
            <legend className="text-sm font-semibold text-slate-900">{t(group.legend)}</legend>
            {group.hint ? <p className="text-sm text-slate-600">{t(group.hint)}</p> : null}
            <div className={`mt-3 grid gap-4 ${group.columns}`}>{group.fields.map(fieldSelect)}</div>
          </fieldset>
        ))}
        <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-600">
          {isUpdating ? (
            <span className="inline-flex items-center gap-2">
              <Spinner className="size-4" />
              {t('catalogue.mapping.updating')}
            </span>
          ) : null}
        </p>
      </div>

      <ImportPreview view={view} mapping={mapping} />

      <div className="flex flex-col gap-3 border-t border-slate-200 pt-5">
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Button
            variant="secondary"
            onClick={props.onChooseAnother}
            disabled={props.isLeaving}
            aria-busy={props.isLeaving}
          >
            {t('catalogue.mapping.chooseAnother')}
          </Button>
          <Button
            onClick={props.onContinue}
            disabled={blockedReason !== null || props.isLeaving}
            aria-describedby={blockedReason ? reasonId : undefined}
            data-testid="mapping-continue"
          >
            {t('catalogue.mapping.toPhotos')}
          </Button>
        </div>
        {blockedReason ? (
          <p id={reasonId} className="text-sm text-slate-600 sm:text-right">
            {blockedReason}
          </p>
        ) : null}
      </div>
    </div>
  )
}
