import { type FormEvent, useId, useState } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import {
  type FilledAttribute,
  type MarketplaceCategory,
  type PublishDraftResponse,
  videoAfterApproval,
  videoMarketplaces,
} from '#shared/contracts/publishing.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { ResultPanel } from '#web/components/ui/result-panel.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { draftListing, getConnections, publish } from '../api/publishing-api.ts'
import { useCategoryDraft } from '../hooks/use-category-draft.ts'
import { numberOf } from '../listing-input.ts'
import { AttributeField } from './attribute-field.tsx'
import { ChosenCategory } from './category-finder.tsx'
import {
  NotConnectedNote,
  PublishButton,
  PublishTarget,
  useMarketplaceChoice,
} from './marketplace-choice.tsx'
import { PublicationStatus } from './publication-status.tsx'

/**
 * "Publish" on a finished image result: choose a connected marketplace, find the category in
 * Turkish words, check the attributes Vitrin filled (each says where its value came from) and
 * answer the ones it could not, give the listing's codes, price and stock, then publish and follow
 * the product until the marketplace has it live, or says why not.
 */
export function PublishPanel(props: { generation: GenerationView }) {
  const { t } = useI18n()
  const id = useId()
  const { generation } = props
  const isImage = generation.status === 'succeeded' && generation.result?.type === 'image'
  const connections = useResource(getConnections, { isEnabled: isImage })
  const choice = useMarketplaceChoice(connections)
  const [published, setPublished] = useState<{ id: string; category: MarketplaceCategory } | null>(null)
  if (!isImage) return null

  return (
    <ResultPanel messages="publishing.panel" tone="plain" testId="publish-panel">
      {connections.status === 'loading' ? (
        <Spinner label={t('publishing.panel.loading')} className="text-brand-700" />
      ) : connections.status === 'error' ? (
        <FormAlert message={t('publishing.panel.loadError')} />
      ) : choice.connected.length === 0 ? (
        <NotConnectedNote testId="publish-not-connected" />
      ) : published ? (
        <PublicationStatus
          id={published.id}
          category={published.category}
          onAgain={() => setPublished(null)}
        />
      ) : (
        <PublishTarget id={id} choice={choice} testId="publish-marketplace">
          {(marketplace, category) => (
            <ListingForm
              key={`${marketplace}:${category.id}`}
              marketplace={marketplace}
              category={category}
              generation={generation}
              onChangeCategory={() => choice.setCategory(null)}
              onPublished={(publicationId) => setPublished({ id: publicationId, category })}
            />
          )}
        </PublishTarget>
      )}
    </ResultPanel>
  )
}

type ListingValues = {
  barcode: string
  stockCode: string
  brand: string
  salePrice: string
  listPrice: string
  stock: string
  vatRate: string
  desi: string
  origin: string
  warrantyMonths: string
  title: string
  description: string
}

const emptyListing: ListingValues = {
  barcode: '',
  stockCode: '',
  brand: '',
  salePrice: '',
  listPrice: '',
  stock: '',
  vatRate: '20',
  desi: '',
  origin: '',
  warrantyMonths: '',
  title: '',
  description: '',
}

/** Empty texts are sent as null (or, for the stock code, as the barcode); numbers as numbers. */
function listingOf(values: ListingValues) {
  const optional = (text: string) => (text.trim() === '' ? null : text.trim())
  const origin = optional(values.origin)
  return {
    barcode: values.barcode.trim(),
    stockCode: values.stockCode.trim() || values.barcode.trim(),
    brand: values.brand.trim(),
    salePrice: numberOf(values.salePrice),
    listPrice: values.listPrice.trim() === '' ? null : numberOf(values.listPrice),
    stock: numberOf(values.stock),
    vatRate: Number(values.vatRate) as 0 | 1 | 10 | 20,
    desi: numberOf(values.desi),
    origin: origin === null ? null : origin.toLocaleUpperCase('en'),
    warrantyMonths: values.warrantyMonths.trim() === '' ? null : numberOf(values.warrantyMonths),
    title: optional(values.title),
    description: optional(values.description),
  }
}

type ListingFormProps = {
  marketplace: IntegrationMarketplace
  category: MarketplaceCategory
  generation: GenerationView
  onChangeCategory: () => void
  onPublished: (publicationId: string) => void
}

/** Reads the draft (the category's attributes, filled), then shows the form starting from it. */
function ListingForm(props: ListingFormProps) {
  const { t } = useI18n()
  const draft = useCategoryDraft(props, props.generation.id, (target) =>
    draftListing({ ...target, imageGenerationId: props.generation.id, copyGenerationId: null }),
  )
  if (draft.status === 'loading') {
    return <Spinner label={t('publishing.panel.drafting')} className="text-brand-700" />
  }
  if (draft.status === 'error') {
    return <FormAlert message={t(errorMessageKey(draft.error))} />
  }
  return <DraftedForm {...props} data={draft.data} />
}

function DraftedForm(props: ListingFormProps & { data: PublishDraftResponse }) {
  const { t } = useI18n()
  const id = useId()
  const { data } = props
  const takesVideo = videoMarketplaces.includes(props.marketplace)
  const [withVideo, setWithVideo] = useState(true)
  const [answers, setAnswers] = useState<Record<string, FilledAttribute>>(() =>
    Object.fromEntries(data.filled.map((filled) => [filled.attributeId, filled])),
  )
  const [isTried, setTried] = useState(false)
  /** How many required attributes were unanswered at the last attempt, or null if none were. */
  const [unansweredAtTry, setUnansweredAtTry] = useState<number | null>(null)
  const form = useForm<ListingValues>({
    initialValues: { ...emptyListing, brand: data.brand ?? '' },
    // The server's field errors are not on these fields: every failure is one message above the button.
    serverFields: {},
    action: async (values) => {
      const answer = await publish({
        marketplace: props.marketplace,
        categoryId: props.category.id,
        products: [
          {
            imageGenerationIds: [props.generation.id],
            copyGenerationId: data.copy?.generationId ?? null,
            videoGenerationId: takesVideo && withVideo ? (data.video?.generationId ?? null) : null,
            listing: listingOf(values),
            attributes: Object.values(answers),
          },
        ],
      })
      const first = answer.publications[0]
      if (first) props.onPublished(first.id)
    },
  })
  const unanswered = data.attributes.filter((attribute) => attribute.isRequired && !answers[attribute.id])
  const needsCopy = data.copy === null
  const failure =
    unansweredAtTry !== null
      ? t('publishing.panel.answerRequired', { count: unansweredAtTry })
      : form.formError

  // Every required attribute needs an answer before the listing is sent.
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    setTried(true)
    form.clearFormError()
    if (unanswered.length > 0) {
      event.preventDefault()
      setUnansweredAtTry(unanswered.length)
      return
    }
    setUnansweredAtTry(null)
    form.formProps.onSubmit(event)
  }

  const field = (
    name: keyof ListingValues,
    options: { inputMode?: 'decimal' | 'numeric'; hint?: string } = {},
  ) => (
    <FormField label={t(`publishing.panel.fields.${name}`)} hint={options.hint}>
      {(control) => (
        <input
          {...control}
          className={inputClasses}
          {...form.input(name)}
          inputMode={options.inputMode}
          data-testid={`publish-${name}`}
        />
      )}
    </FormField>
  )

  return (
    <form
      {...form.formProps}
      onSubmit={handleSubmit}
      className="space-y-5"
      aria-labelledby={`${id}-category`}
    >
      <ChosenCategory id={`${id}-category`} category={data.category} onChange={props.onChangeCategory} />

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">{t('publishing.panel.copyLegend')}</legend>
        {data.copy ? (
          <p className="text-sm text-slate-700" data-testid="publish-copy">
            {t('publishing.panel.copyFrom', { title: data.copy.title })}
          </p>
        ) : (
          <p className="text-sm text-slate-700">{t('publishing.panel.copyMissing')}</p>
        )}
        {field('title', needsCopy ? {} : { hint: t('publishing.panel.optionalOverride') })}
        {field('description', needsCopy ? {} : { hint: t('publishing.panel.optionalOverride') })}
      </fieldset>

      {data.video && takesVideo ? (
        <fieldset className="space-y-2" data-testid="publish-video">
          <legend className="text-sm font-semibold text-slate-900">
            {t('publishing.panel.videoLegend')}
          </legend>
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5 size-4 rounded border-slate-300"
              checked={withVideo}
              onChange={(event) => setWithVideo(event.currentTarget.checked)}
              data-testid="publish-with-video"
            />
            <span>{t('publishing.panel.withVideo')}</span>
          </label>
          {videoAfterApproval.includes(props.marketplace) ? (
            <p className="text-xs text-slate-600">
              {t('publishing.panel.videoAfterApproval', {
                marketplace: t(`settings.integrations.${props.marketplace}.name`),
              })}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">
          {t('publishing.panel.attributesLegend')}
        </legend>
        {data.attributes.length === 0 ? (
          <p className="text-sm text-slate-700">{t('publishing.panel.noAttributes')}</p>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2">
            {data.attributes.map((attribute) => (
              <AttributeField
                key={attribute.id}
                attribute={attribute}
                answer={answers[attribute.id]}
                isMissing={isTried && attribute.isRequired && !answers[attribute.id]}
                onAnswer={(answer) =>
                  setAnswers((current) => {
                    const next = { ...current }
                    if (answer) next[attribute.id] = answer
                    else delete next[attribute.id]
                    return next
                  })
                }
              />
            ))}
          </div>
        )}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">
          {t('publishing.panel.listingLegend')}
        </legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {field('barcode')}
          {field('stockCode', { hint: t('publishing.panel.stockCodeHint') })}
          {field('brand')}
          {field('salePrice', { inputMode: 'decimal' })}
          {field('listPrice', { inputMode: 'decimal', hint: t('publishing.panel.optional') })}
          {field('stock', { inputMode: 'numeric' })}
          <FormField label={t('publishing.panel.fields.vatRate')}>
            {(control) => (
              <select {...control} className={inputClasses} {...form.input('vatRate')}>
                {['0', '1', '10', '20'].map((rate) => (
                  <option key={rate} value={rate}>
                    %{rate}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          {field('desi', { inputMode: 'decimal' })}
          {props.marketplace === 'trendyol'
            ? field('origin', { hint: t('publishing.panel.originHint') })
            : field('warrantyMonths', { inputMode: 'numeric' })}
        </div>
      </fieldset>

      {failure ? <FormAlert message={failure} /> : null}
      <PublishButton
        marketplace={props.marketplace}
        isSending={form.isBusy}
        className={buttonClasses('primary')}
        testId="publish-submit"
      />
    </form>
  )
}
