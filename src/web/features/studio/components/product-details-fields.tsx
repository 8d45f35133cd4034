import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { type DetailsForm, featuresProblem } from '../product-details.ts'

const textFields = [
  { field: 'name', maxLength: 120 },
  { field: 'category', maxLength: 80 },
  { field: 'brand', maxLength: 80 },
  { field: 'material', maxLength: 80 },
  { field: 'color', maxLength: 40 },
] as const

/**
 * The product's facts for SEO copy: name, category, brand, material, colour, the seller's own
 * description and key features (one per line). Two columns from a tablet up, one on a phone;
 * every control is labelled, its hint and any error are read with it.
 */
export function ProductDetailsFields(props: {
  value: DetailsForm
  /** One field's new text. */
  onChange: (field: keyof DetailsForm, text: string) => void
}) {
  const { t, formatNumber } = useI18n()
  const { value } = props
  const set = props.onChange
  const problem = featuresProblem(value.features)
  const featuresError = !problem
    ? undefined
    : problem.kind === 'tooMany'
      ? t('studio.details.errors.tooMany', { count: formatNumber(problem.count) })
      : t('studio.details.errors.tooLong', { line: formatNumber(problem.line) })
  return (
    <fieldset data-testid="product-details">
      <legend className="text-sm font-semibold text-slate-900">{t('studio.details.legend')}</legend>
      <p className="text-xs text-slate-600">{t('studio.details.hint')}</p>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {textFields.map(({ field, maxLength }) => (
          <FormField
            key={field}
            label={t(`studio.details.${field}`)}
            description={field === 'color' ? t('studio.details.colorHint') : undefined}
            className={field === 'color' ? 'sm:col-span-2' : undefined}
          >
            {(control) => (
              <input
                {...control}
                type="text"
                name={field}
                maxLength={maxLength}
                autoComplete="off"
                value={value[field]}
                onChange={(event) => set(field, event.currentTarget.value)}
                className={inputClasses}
              />
            )}
          </FormField>
        ))}
        <FormField
          label={t('studio.details.description')}
          description={t('studio.details.descriptionHint')}
          className="sm:col-span-2"
        >
          {(control) => (
            <textarea
              {...control}
              name="description"
              rows={3}
              maxLength={1000}
              value={value.description}
              onChange={(event) => set('description', event.currentTarget.value)}
              className={inputClasses}
            />
          )}
        </FormField>
        <FormField
          label={t('studio.details.features')}
          description={t('studio.details.featuresHint')}
          error={featuresError}
          className="sm:col-span-2"
        >
          {(control) => (
            <textarea
              {...control}
              name="features"
              rows={4}
              value={value.features}
              onChange={(event) => set('features', event.currentTarget.value)}
              className={inputClasses}
            />
          )}
        </FormField>
      </div>
    </fieldset>
  )
}
