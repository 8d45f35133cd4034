import type { FilledAttribute, MarketplaceAttribute } from '#shared/contracts/publishing.ts'
import { type FieldControl, inputClasses } from '#web/components/ui/form-field.tsx'
import { AttributeField } from './attribute-field.tsx'

// The inputs a batch's questions and a resubmission's form share: attribute answers in a grid,
// and one listing field (VAT as a choice of the four rates, the rest typed).

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
