import { type RefObject, useId, useState } from 'react'
import {
  type FilledAttribute,
  type ListingCorrection,
  listingCorrectionSchema,
  type MarketplaceCategory,
  type PublicationItemView,
  type PublicationView,
  type ResubmitResponse,
} from '#shared/contracts/publishing.ts'
import { publishFixMessageKeys } from '#shared/publishing/rejections.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { ModalDialog } from '#web/components/ui/modal-dialog.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useResource } from '#web/lib/use-resource.ts'
import { getCategoryAttributes, resubmitPublication } from '../api/publishing-api.ts'
import { fieldsAtFault, numberOf } from '../listing-input.ts'
import { attributesToAsk, planResubmit } from '../resubmit-plan.ts'
import { CategoryFinder, ChosenCategory } from './category-finder.tsx'
import { AttributeAnswerGrid, ListingFieldsFieldset } from './listing-inputs.tsx'

const numericFields = new Set<keyof ListingCorrection>([
  'salePrice',
  'listPrice',
  'stock',
  'desi',
  'warrantyMonths',
])

/**
 * The corrected fields as typed, read into the shape the server takes, empty ones left out: a
 * field the seller left alone is never sent, so it can never be read as "cleared". They are
 * checked against the schema, but sent as read, without any default the schema would add.
 */
function correctionOf(
  values: Partial<Record<keyof ListingCorrection, string>>,
): { isValid: true; listing: ListingCorrection } | { isValid: false; invalid: Set<string> } {
  const raw: Record<string, unknown> = {}
  for (const [name, text] of Object.entries(values) as [keyof ListingCorrection, string][]) {
    const trimmed = text.trim()
    if (trimmed === '') continue
    raw[name] =
      name === 'vatRate'
        ? Number(trimmed)
        : numericFields.has(name)
          ? numberOf(trimmed)
          : name === 'origin'
            ? trimmed.toLocaleUpperCase('en')
            : trimmed
  }
  const parsed = listingCorrectionSchema.safeParse(raw)
  return parsed.success
    ? { isValid: true, listing: raw as ListingCorrection }
    : { isValid: false, invalid: new Set(parsed.error.issues.map((issue) => String(issue.path[0]))) }
}

/**
 * "Fix and resubmit" for one product or every refused one: says what Vitrin will do by itself
 * (each fix's own description) and asks only what it cannot know: the attributes a reason names
 * (with the values the category allows), the listing's fields a reason is about, or another
 * category. Sending makes a new publication; the caller follows it.
 */
export function ResubmitDialog(props: {
  publication: PublicationView
  items: PublicationItemView[]
  isAll: boolean
  /** The category the products were published in, when the screen knows it. */
  category: MarketplaceCategory | null
  onClose: () => void
  onResubmitted: (response: ResubmitResponse) => void
  finalFocusRef?: RefObject<HTMLElement | null>
}) {
  const { t } = useI18n()
  const id = useId()
  const { publication, items } = props
  const marketplace = publication.marketplace
  const marketplaceName = t(`settings.integrations.${marketplace}.name`)
  const plan = planResubmit(items, marketplace)
  const [chosenCategory, setChosenCategory] = useState<MarketplaceCategory | null>(null)
  const [answers, setAnswers] = useState<Record<string, FilledAttribute>>({})
  const [values, setValues] = useState<Partial<Record<keyof ListingCorrection, string>>>({})
  const [isBusy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [invalidFields, setInvalidFields] = useState<Set<string>>(new Set())

  const attributeCategory = chosenCategory ?? (plan.needsCategory ? null : props.category)
  const attributes = useResource(
    (signal) => getCategoryAttributes(marketplace, attributeCategory?.id ?? '', signal),
    {
      key: `${marketplace}:${attributeCategory?.id ?? ''}`,
      isEnabled: plan.needsAttributes && attributeCategory !== null,
    },
  )
  const asked =
    attributes.status === 'ready' ? attributesToAsk(attributes.data.attributes, plan.attributes) : []
  const needsFinder = plan.needsCategory || (plan.needsAttributes && attributeCategory === null)
  const isSilent =
    plan.automatic.length === 0 &&
    !plan.needsAttributes &&
    plan.listingFields.length === 0 &&
    !needsFinder &&
    !plan.hasKeyProblem &&
    !plan.isStockCodeFixed

  async function handleSubmit() {
    setFailure(null)
    if (plan.needsCategory && !chosenCategory) {
      setFailure(t('publishing.resubmit.chooseCategoryFirst'))
      return
    }
    const listing = correctionOf(values)
    if (!listing.isValid) {
      setInvalidFields(listing.invalid)
      setFailure(t('publishing.resubmit.checkFields'))
      return
    }
    setInvalidFields(new Set())
    setBusy(true)
    try {
      const response = await resubmitPublication(publication.id, {
        itemIds: props.isAll ? null : items.map((item) => item.id),
        attributes: Object.values(answers),
        listing: listing.listing,
        categoryId: plan.needsCategory ? (chosenCategory?.id ?? null) : null,
      })
      props.onResubmitted(response)
    } catch (caught) {
      setInvalidFields(fieldsAtFault(caught, 'listing.'))
      setFailure(t(errorMessageKey(caught)))
      setBusy(false)
    }
  }

  const sendLabel = t('publishing.resubmit.send', { count: items.length })
  return (
    <ModalDialog
      title={t('publishing.resubmit.title')}
      description={
        <p>
          {props.isAll
            ? t('publishing.resubmit.introAll', { count: items.length, marketplace: marketplaceName })
            : t('publishing.resubmit.introOne', {
                product: items[0]?.title || items[0]?.barcode || '',
                marketplace: marketplaceName,
              })}
        </p>
      }
      onClose={props.onClose}
      isBusy={isBusy}
      size="lg"
      finalFocusRef={props.finalFocusRef}
    >
      {/* Not a form: the category search inside is one of its own. */}
      <div className="mt-4 space-y-5" data-testid="resubmit-dialog">
        {plan.automatic.length > 0 ? (
          <section aria-labelledby={`${id}-auto`} className="space-y-2">
            <h3 id={`${id}-auto`} className="text-sm font-semibold text-slate-900">
              {t('publishing.resubmit.automaticTitle')}
            </h3>
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800" data-testid="resubmit-automatic">
              {plan.automatic.map((fix) => (
                <li key={fix}>
                  <span className="font-semibold">{t(publishFixMessageKeys(fix).label)}:</span>{' '}
                  {t(publishFixMessageKeys(fix).does)}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {isSilent ? <p className="text-sm text-slate-700">{t('publishing.resubmit.nothingToFix')}</p> : null}
        {plan.unfixable > 0 ? (
          <p className="text-sm text-slate-700">
            {t('publishing.resubmit.unfixable', { count: plan.unfixable })}
          </p>
        ) : null}

        {needsFinder ? (
          <section aria-labelledby={`${id}-category`} className="space-y-2">
            <h3 id={`${id}-category`} className="text-sm font-semibold text-slate-900">
              {plan.needsCategory
                ? t('publishing.resubmit.categoryTitle')
                : t('publishing.resubmit.categoryAttributesTitle')}
            </h3>
            {chosenCategory ? (
              <ChosenCategory
                category={chosenCategory}
                testId="resubmit-category"
                onChange={() => {
                  setChosenCategory(null)
                  setAnswers({})
                }}
              />
            ) : (
              <>
                <p className="text-sm text-slate-700">
                  {plan.needsCategory
                    ? t('publishing.resubmit.categoryWhy')
                    : t('publishing.resubmit.categoryForAttributes')}
                </p>
                <CategoryFinder marketplace={marketplace} onChoose={setChosenCategory} />
              </>
            )}
          </section>
        ) : null}

        {plan.needsAttributes && attributeCategory ? (
          <fieldset className="space-y-3">
            <legend className="text-sm font-semibold text-slate-900">
              {t('publishing.resubmit.attributesTitle')}
            </legend>
            {attributes.status === 'loading' ? (
              <Spinner label={t('publishing.resubmit.loadingAttributes')} className="text-brand-700" />
            ) : attributes.status === 'error' ? (
              <FormAlert message={t(errorMessageKey(attributes.error))} />
            ) : asked.length === 0 ? (
              <p className="text-sm text-slate-700">{t('publishing.panel.noAttributes')}</p>
            ) : (
              <AttributeAnswerGrid attributes={asked} answers={answers} onChange={setAnswers} />
            )}
          </fieldset>
        ) : null}

        {plan.listingFields.length > 0 ? (
          <ListingFieldsFieldset
            legend={t('publishing.resubmit.listingTitle')}
            hint={t('publishing.resubmit.listingHint')}
            names={plan.listingFields}
            values={values}
            invalid={invalidFields}
            numeric={numericFields}
            emptyLabel={t('publishing.resubmit.keep')}
            testIdPrefix="resubmit-"
            onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
          />
        ) : null}
        {plan.hasKeyProblem ? (
          <p className="text-sm text-slate-700">{t('publishing.resubmit.barcodeStays')}</p>
        ) : null}
        {plan.isStockCodeFixed ? (
          <p className="text-sm text-slate-700">{t('publishing.resubmit.stockCodeStays')}</p>
        ) : null}

        {failure ? <FormAlert message={failure} className="mb-0" /> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClasses('secondary')}
            onClick={props.onClose}
            disabled={isBusy}
          >
            {t('publishing.resubmit.cancel')}
          </button>
          <button
            type="button"
            onClick={() => void handleSubmit()}
            className={buttonClasses('primary')}
            disabled={isBusy}
            aria-busy={isBusy}
            data-testid="resubmit-send"
          >
            {isBusy ? t('publishing.resubmit.sending') : sendLabel}
          </button>
        </div>
      </div>
    </ModalDialog>
  )
}
