import type { FilledAttribute, MarketplaceAttribute } from '#shared/contracts/publishing.ts'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/** One attribute: a choice among its allowed values (or text where it takes any), with where the value came from. */
export function AttributeField(props: {
  attribute: MarketplaceAttribute
  answer: FilledAttribute | undefined
  isMissing: boolean
  onAnswer: (answer: FilledAttribute | null) => void
}) {
  const { t } = useI18n()
  const { attribute, answer } = props
  const source = answer ? t(`publishing.panel.sources.${answer.source}`) : undefined
  return (
    <FormField
      label={attribute.name}
      hint={attribute.isRequired ? t('publishing.panel.required') : t('publishing.panel.optional')}
      description={source}
      error={props.isMissing ? t('publishing.panel.attributeMissing') : undefined}
    >
      {(control) =>
        attribute.values.length > 0 ? (
          <select
            {...control}
            className={inputClasses}
            value={answer?.valueId ?? ''}
            onChange={(event) => {
              const value = attribute.values.find((v) => v.id === event.currentTarget.value)
              props.onAnswer(
                value
                  ? { attributeId: attribute.id, valueId: value.id, value: value.name, source: 'seller' }
                  : null,
              )
            }}
            data-testid={`publish-attribute-${attribute.id}`}
          >
            <option value="">{t('publishing.panel.chooseValue')}</option>
            {attribute.values.map((value) => (
              <option key={value.id} value={value.id}>
                {value.name}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...control}
            className={inputClasses}
            value={answer?.value ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value
              props.onAnswer(
                value.trim() === ''
                  ? null
                  : { attributeId: attribute.id, valueId: null, value, source: 'seller' },
              )
            }}
            data-testid={`publish-attribute-${attribute.id}`}
          />
        )
      }
    </FormField>
  )
}
