import type {
  BatchListingDefaults,
  FilledAttribute,
  ListingCorrection,
  MarketplaceAttribute,
} from '#shared/contracts/publishing.ts'
import { type FieldControl, FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { AttributeField } from './attribute-field.tsx'

// The inputs a batch's questions and a resubmission's form share: attribute answers in a grid,
// and listing fields (VAT as a choice of the four rates, the rest typed) in a fieldset.

/** An answer for each attribute, by its id; clearing an answer removes it. */
export type AttributeAnswers = Record<string, FilledAttribute>

export function AttributeAnswerGrid(props: {
  attributes: readonly MarketplaceAttribute[]
  answers: AttributeAnswers
  onChange: (update: (current: AttributeAnswers) => AttributeAnswers) => void
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {props.attributes.map((attribute) => (
        <AttributeField
          key={attribute.id}
          attribute={attribute}
          answer={props.answers[attribute.id]}
          isMissing={false}
          onAnswer={(answer) =>
            props.onChange((current) => {
              const next = { ...current }
              if (answer) next[attribute.id] = answer
              else delete next[attribute.id]
              return next
            })
          }
        />
      ))}
    </div>
  )
}

/** A listing field a batch's defaults or a resubmission can ask for. */
type ListingFieldName = keyof BatchListingDefaults | keyof ListingCorrection

/** The VAT rates Trendyol and Hepsiburada take. */
const vatRates = ['0', '1', '10', '20'] as const

/** One listing field's control inside its FormField: VAT as a choice, numbers typed as decimals. */
export function ListingFieldInput(props: {
  control: FieldControl
  name: string
  value: string
  isNumeric: boolean
  /** The empty choice of the VAT select ("Choose", "Keep as sent"). */
  emptyLabel: string
  testId: string
  onChange: (value: string) => void
}) {
  if (props.name === 'vatRate') {
    return (
      <select
        {...props.control}
        className={inputClasses}
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        data-testid={props.testId}
      >
        <option value="">{props.emptyLabel}</option>
        {vatRates.map((rate) => (
          <option key={rate} value={rate}>
            %{rate}
          </option>
        ))}
      </select>
    )
  }
  return (
    <input
      {...props.control}
      className={inputClasses}
      value={props.value}
      inputMode={props.isNumeric ? 'decimal' : undefined}
      onChange={(event) => props.onChange(event.currentTarget.value)}
      data-testid={props.testId}
    />
  )
}

/**
 * Listing fields asked in a fieldset: the legend and hint, then each field labelled by its name,
 * marked when the last attempt found it invalid.
 */
export function ListingFieldsFieldset<Name extends ListingFieldName>(props: {
  legend: string
  hint: string
  names: readonly Name[]
  values: Partial<Record<Name, string>>
  invalid: ReadonlySet<string>
  numeric: ReadonlySet<Name>
  /** The empty choice of the VAT select ("Choose", "Keep as sent"). */
  emptyLabel: string
  /** Before each field's name, for its test id ("batch-default-", "resubmit-"). */
  testIdPrefix: string
  /** A note beside a field's label, if it has one. */
  fieldHint?: (name: Name) => string | undefined
  onChange: (name: Name, value: string) => void
}) {
  const { t } = useI18n()
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-slate-900">{props.legend}</legend>
      <p className="text-sm text-slate-700">{props.hint}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {props.names.map((name) => (
          <FormField
            key={name}
            label={t(`publishing.panel.fields.${name as ListingFieldName}`)}
            hint={props.fieldHint?.(name)}
            error={props.invalid.has(name) ? t('publishing.resubmit.fieldInvalid') : undefined}
          >
            {(control) => (
              <ListingFieldInput
                control={control}
                name={name}
                value={props.values[name] ?? ''}
                isNumeric={props.numeric.has(name)}
                emptyLabel={props.emptyLabel}
                testId={`${props.testIdPrefix}${name}`}
                onChange={(value) => props.onChange(name, value)}
              />
            )}
          </FormField>
        ))}
      </div>
    </fieldset>
  )
}
