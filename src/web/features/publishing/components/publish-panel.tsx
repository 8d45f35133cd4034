import { type FormEvent, useEffect, useId, useState } from 'react'
import { Link } from 'react-router'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type {
  FilledAttribute,
  MarketplaceAttribute,
  MarketplaceCategory,
  PublicationItemView,
  PublishDraftResponse,
} from '#shared/contracts/publishing.ts'
import { isErrorCode } from '#shared/errors.ts'
import {
  classifyListingProblem,
  classifyReason,
  publishFixMessageKeys,
  rejectionMessageKey,
} from '#shared/publishing/rejections.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useResource } from '#web/lib/use-resource.ts'
import {
  draftListing,
  getConnections,
  getPublication,
  publish,
  searchCategories,
} from '../api/publishing-api.ts'

/** How often a publication under way is read again. */
const followMs = 2000

const sectionClass = 'space-y-4 rounded-2xl border border-slate-200 bg-white p-4'

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
  const [marketplace, setMarketplace] = useState<IntegrationMarketplace | null>(null)
  const [category, setCategory] = useState<MarketplaceCategory | null>(null)
  const [publicationId, setPublicationId] = useState<string | null>(null)
  if (!isImage) return null

  const connected =
    connections.status === 'ready'
      ? connections.data.integrations.filter((integration) => integration.isConnected)
      : []
  const chosen = marketplace ?? connected[0]?.marketplace ?? null

  return (
    <section aria-labelledby={`${id}-title`} className={sectionClass} data-testid="publish-panel">
      <div>
        <h3 id={`${id}-title`} className="font-semibold text-slate-900">
          {t('publishing.panel.title')}
        </h3>
        <p className="text-sm text-slate-600">{t('publishing.panel.intro')}</p>
      </div>
      {connections.status === 'loading' ? (
        <Spinner label={t('publishing.panel.loading')} className="text-brand-700" />
      ) : connections.status === 'error' ? (
        <FormAlert message={t('publishing.panel.loadError')} />
      ) : connected.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="publish-not-connected">
          {t('publishing.panel.notConnected')}{' '}
          <Link
            to={`${href('settings')}?tab=integrations`}
            className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
          >
            {t('publishing.panel.connectLink')}
          </Link>
        </p>
      ) : publicationId ? (
        <PublicationStatus id={publicationId} onAgain={() => setPublicationId(null)} />
      ) : (
        <>
          <div>
            <label htmlFor={`${id}-marketplace`} className="block text-sm font-medium text-slate-900">
              {t('publishing.panel.marketplace')}
            </label>
            <select
              id={`${id}-marketplace`}
              className={`${inputClasses} mt-1 sm:max-w-xs`}
              value={chosen ?? ''}
              onChange={(event) => {
                setMarketplace(event.currentTarget.value as IntegrationMarketplace)
                setCategory(null)
              }}
              data-testid="publish-marketplace"
            >
              {connected.map((integration) => (
                <option key={integration.marketplace} value={integration.marketplace}>
                  {t(`settings.integrations.${integration.marketplace}.name`)}
                </option>
              ))}
            </select>
          </div>
          {chosen ? (
            category ? (
              <ListingForm
                key={`${chosen}:${category.id}`}
                marketplace={chosen}
                category={category}
                generation={generation}
                onChangeCategory={() => setCategory(null)}
                onPublished={setPublicationId}
              />
            ) : (
              <CategoryFinder marketplace={chosen} onChoose={setCategory} />
            )
          ) : null}
        </>
      )}
    </section>
  )
}

/** A search in the marketplace's categories; a category that takes products is chosen from the results. */
function CategoryFinder(props: {
  marketplace: IntegrationMarketplace
  onChoose: (category: MarketplaceCategory) => void
}) {
  const { t } = useI18n()
  const id = useId()
  const [query, setQuery] = useState('')
  const [asked, setAsked] = useState('')
  const results = useResource((signal) => searchCategories(props.marketplace, asked, signal), {
    key: `${props.marketplace}:${asked}`,
    isEnabled: asked !== '',
  })
  function handleSubmit(event: FormEvent) {
    event.preventDefault()
    setAsked(query.trim())
  }
  return (
    <div className="space-y-3">
      <form onSubmit={handleSubmit} className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-query`} className="block text-sm font-medium text-slate-900">
            {t('publishing.panel.categoryLabel')}
          </label>
          <input
            id={`${id}-query`}
            type="search"
            className={`${inputClasses} mt-1`}
            value={query}
            placeholder={t('publishing.panel.categoryPlaceholder')}
            onChange={(event) => setQuery(event.currentTarget.value)}
            data-testid="publish-category-query"
          />
        </div>
        <button type="submit" className={buttonClasses('secondary')} disabled={query.trim() === ''}>
          {t('publishing.panel.search')}
        </button>
      </form>
      {asked === '' ? null : results.status === 'loading' ? (
        <Spinner label={t('publishing.panel.searching')} className="text-brand-700" />
      ) : results.status === 'error' ? (
        <FormAlert message={t(errorMessageKey(results.error))} />
      ) : results.data.categories.length === 0 ? (
        <p role="status" className="text-sm text-slate-700">
          {t('publishing.panel.noCategories', { query: asked })}
        </p>
      ) : (
        <ul
          aria-label={t('publishing.panel.categoryResults')}
          className="divide-y divide-slate-200 rounded-xl border border-slate-200"
        >
          {results.data.categories.map((category) => (
            <li key={category.id} className="flex items-center justify-between gap-3 p-3">
              <span className="text-sm text-slate-800">{category.path.join(' › ')}</span>
              {category.isLeaf ? (
                <button
                  type="button"
                  className={buttonClasses('secondary')}
                  onClick={() => props.onChoose(category)}
                  aria-label={t('publishing.panel.chooseCategoryNamed', { category: category.name })}
                >
                  {t('publishing.panel.chooseCategory')}
                </button>
              ) : (
                <span className="text-xs text-slate-500">{t('publishing.panel.notLeaf')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
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

/** A price or quantity as typed in Turkish or English ("1.299,90", "1299.90"); NaN when unreadable. */
function numberOf(text: string): number {
  const cleaned = text.replace(/[\s₺]|TL/gi, '')
  const normalised = /,\d{1,2}$/.test(cleaned)
    ? cleaned.replace(/\./g, '').replace(',', '.')
    : cleaned.replace(/,/g, '')
  return normalised === '' ? Number.NaN : Number(normalised)
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
  const draft = useResource(
    () =>
      draftListing({
        marketplace: props.marketplace,
        categoryId: props.category.id,
        imageGenerationId: props.generation.id,
        copyGenerationId: null,
      }),
    { key: `${props.marketplace}:${props.category.id}:${props.generation.id}` },
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
  const [values, setValues] = useState<ListingValues>({
    barcode: '',
    stockCode: '',
    brand: data.brand ?? '',
    salePrice: '',
    listPrice: '',
    stock: '',
    vatRate: '20',
    desi: '',
    origin: '',
    warrantyMonths: '',
    title: '',
    description: '',
  })
  const [answers, setAnswers] = useState<Record<string, FilledAttribute>>(() =>
    Object.fromEntries(data.filled.map((filled) => [filled.attributeId, filled])),
  )
  const [isSending, setSending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [isTried, setTried] = useState(false)

  const set = (name: keyof ListingValues) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value
    setValues((current) => ({ ...current, [name]: value }))
  }
  const unanswered = data.attributes.filter((attribute) => attribute.isRequired && !answers[attribute.id])
  const needsCopy = data.copy === null

  async function handleSubmit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    setFailure(null)
    if (unanswered.length > 0) {
      setFailure(t('publishing.panel.answerRequired', { count: unanswered.length }))
      return
    }
    setSending(true)
    try {
      const listPrice = values.listPrice.trim() === '' ? null : numberOf(values.listPrice)
      const answer = await publish({
        marketplace: props.marketplace,
        categoryId: props.category.id,
        products: [
          {
            imageGenerationIds: [props.generation.id],
            copyGenerationId: data.copy?.generationId ?? null,
            listing: {
              barcode: values.barcode.trim(),
              stockCode: values.stockCode.trim() || values.barcode.trim(),
              brand: values.brand.trim(),
              salePrice: numberOf(values.salePrice),
              listPrice,
              stock: numberOf(values.stock),
              vatRate: Number(values.vatRate) as 0 | 1 | 10 | 20,
              desi: numberOf(values.desi),
              origin: values.origin.trim() === '' ? null : values.origin.trim().toLocaleUpperCase('en'),
              warrantyMonths: values.warrantyMonths.trim() === '' ? null : numberOf(values.warrantyMonths),
              title: values.title.trim() === '' ? null : values.title.trim(),
              description: values.description.trim() === '' ? null : values.description.trim(),
            },
            attributes: Object.values(answers),
          },
        ],
      })
      const first = answer.publications[0]
      if (first) props.onPublished(first.id)
    } catch (caught) {
      setFailure(t(errorMessageKey(caught)))
      setSending(false)
    }
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
          value={values[name]}
          onChange={set(name)}
          inputMode={options.inputMode}
          data-testid={`publish-${name}`}
        />
      )}
    </FormField>
  )

  return (
    <form onSubmit={handleSubmit} noValidate className="space-y-5" aria-labelledby={`${id}-category`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p id={`${id}-category`} className="text-sm text-slate-800">
          {t('publishing.panel.categoryChosen', { path: data.category.path.join(' › ') })}
        </p>
        <button
          type="button"
          onClick={props.onChangeCategory}
          className="text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
        >
          {t('publishing.panel.changeCategory')}
        </button>
      </div>

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
              <select {...control} className={inputClasses} value={values.vatRate} onChange={set('vatRate')}>
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
      <button
        type="submit"
        className={buttonClasses('primary')}
        disabled={isSending}
        data-testid="publish-submit"
      >
        {isSending
          ? t('publishing.panel.publishing')
          : t('publishing.panel.publish', {
              marketplace: t(`settings.integrations.${props.marketplace}.name`),
            })}
      </button>
    </form>
  )
}

/** One attribute: a choice among its allowed values (or text where it takes any), with where the value came from. */
function AttributeField(props: {
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

/** A publication followed until every product is final: its status, and each reason with its fix. */
export function PublicationStatus(props: { id: string; onAgain: () => void }) {
  const { t } = useI18n()
  const publication = useResource((signal) => getPublication(props.id, signal), { key: props.id })
  const latest = publication.status === 'ready' ? publication.data.publication : null
  const isFinal = latest?.status === 'done' || latest?.status === 'failed'
  const { reload } = publication
  // Read again while it is under way (a reload keeps the last answer shown).
  useEffect(() => {
    if (!latest || isFinal) return
    const timer = setTimeout(reload, followMs)
    return () => clearTimeout(timer)
  }, [latest, isFinal, reload])

  if (publication.status === 'error' && !latest) {
    return <FormAlert message={t(errorMessageKey(publication.error))} />
  }
  if (!latest) return <Spinner label={t('publishing.panel.following')} className="text-brand-700" />
  const marketplace = t(`settings.integrations.${latest.marketplace}.name`)
  return (
    <div className="space-y-3" data-testid="publication-status">
      <p role="status" className="text-sm font-semibold text-slate-900">
        {isFinal
          ? t('publishing.panel.finished', { marketplace })
          : t('publishing.panel.underWay', { marketplace })}
      </p>
      {latest.errorCode ? (
        <FormAlert
          message={t(isErrorCode(latest.errorCode) ? `errors.${latest.errorCode}` : 'errors.INTERNAL')}
        />
      ) : null}
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
        {latest.items.map((item) => (
          <ItemRow key={item.id} item={item} marketplace={marketplace} marketplaceId={latest.marketplace} />
        ))}
      </ul>
      {isFinal ? (
        <button type="button" className={buttonClasses('secondary')} onClick={props.onAgain}>
          {t('publishing.panel.publishAgain')}
        </button>
      ) : null}
    </div>
  )
}

function ItemRow(props: {
  item: PublicationItemView
  marketplace: string
  marketplaceId: IntegrationMarketplace
}) {
  const { t } = useI18n()
  const { item } = props
  const rejections = [
    ...item.problems.map((problem) => classifyListingProblem(problem)),
    ...item.reasons.map((reason) => classifyReason(props.marketplaceId, reason)),
  ]
  return (
    <li className="space-y-2 p-3" data-testid="publication-item">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-medium text-slate-900">
          {item.title || item.barcode} <span className="text-slate-500">({item.barcode})</span>
        </span>
        <span className="text-sm font-semibold text-slate-800" data-testid="publication-item-status">
          {t(`publishing.panel.statuses.${item.status}`)}
        </span>
      </div>
      {item.productUrl ? (
        <a
          href={item.productUrl}
          target="_blank"
          rel="noreferrer"
          className="text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
        >
          {t('publishing.panel.viewOn', { marketplace: props.marketplace })}
        </a>
      ) : null}
      {rejections.length > 0 ? (
        <ul className="space-y-2">
          {rejections.map((rejection) => (
            <li key={`${rejection.code}:${rejection.text}`} className="text-sm text-slate-800">
              <p>{t(rejectionMessageKey(rejection.code))}</p>
              {item.reasons.includes(rejection.text) ? (
                <p className="text-xs text-slate-600">
                  {t('publishing.rejections.marketplaceSaid', {
                    marketplace: props.marketplace,
                    text: rejection.text,
                  })}
                </p>
              ) : null}
              {rejection.fix ? (
                <p className="text-xs text-slate-700">{t(publishFixMessageKeys(rejection.fix).does)}</p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  )
}
