import { useId, useState } from 'react'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import {
  type BatchListingDefaults,
  batchListingDefaultsSchema,
  type CataloguePublishDraftResponse,
  type FilledAttribute,
  type MarketplaceCategory,
  type PublicationView,
  videoAfterApproval,
  videoMarketplaces,
} from '#shared/contracts/publishing.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useAnnouncer } from '#web/lib/use-announcer.ts'
import { useForm } from '#web/lib/use-form.ts'
import { useResource } from '#web/lib/use-resource.ts'
import {
  draftCataloguePublish,
  getConnections,
  listPublications,
  publishCatalogue,
} from '../api/publishing-api.ts'
import { useCategoryDraft } from '../hooks/use-category-draft.ts'
import { useFocusAfterRender } from '../hooks/use-focus-after-render.ts'
import { numberOf } from '../listing-input.ts'
import { ChosenCategory } from './category-finder.tsx'
import { AttributeAnswerGrid, ListingFieldsFieldset } from './listing-inputs.tsx'
import {
  NotConnectedNote,
  PublishButton,
  PublishTarget,
  useMarketplaceChoice,
} from './marketplace-choice.tsx'
import { PublicationStatus } from './publication-status.tsx'

const cardClass = 'space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6'

type DefaultName = keyof BatchListingDefaults
/** The defaults as typed ('' for one not given). */
type DefaultValues = Record<DefaultName, string>
const numericDefaults = new Set<DefaultName>(['desi', 'stock', 'warrantyMonths'])

/** The rows table's columns; on a phone the barcode and image count give way to what a row lacks. */
const rowColumns: { label: TKey; className: string }[] = [
  { label: 'publishing.batch.columns.include', className: 'pr-3' },
  { label: 'publishing.batch.columns.product', className: 'pr-3' },
  { label: 'publishing.panel.fields.barcode', className: 'hidden pr-3 sm:table-cell' },
  { label: 'publishing.batch.images', className: 'hidden pr-3 sm:table-cell' },
  { label: 'publishing.batch.columns.lacks', className: '' },
]

/**
 * "Publish to Trendyol / Hepsiburada" on a finished catalogue batch: a connected marketplace, the
 * category, then the draft (what each row would send and what it lacks), the batch's questions
 * asked once and the defaults for what rows lack, then the publications of this batch followed
 * with the same status, reasons and Fix and resubmit as everywhere else.
 */
export function CataloguePublish(props: { batchId: string }) {
  const { t } = useI18n()
  const id = useId()
  const connections = useResource(getConnections)
  const published = useResource((signal) => listPublications({ batchId: props.batchId }, signal), {
    key: props.batchId,
  })
  const choice = useMarketplaceChoice(connections)
  const [isComposing, setComposing] = useState(false)
  // The category the batch was last published in here, for the attribute form of a resubmission.
  const [publishedCategory, setPublishedCategory] = useState<MarketplaceCategory | null>(null)
  const [announcement, announce] = useAnnouncer()
  // Once published, the form is gone: the seller continues at the publications being followed.
  const [followRef, focusFollow] = useFocusAfterRender<HTMLHeadingElement>()

  const publications =
    published.status === 'ready'
      ? [...published.data.publications].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      : []
  const showsForm = isComposing || (published.status === 'ready' && publications.length === 0)

  function handlePublished(next: PublicationView[]) {
    published.update((current) => ({ publications: [...next, ...current.publications] }))
    setComposing(false)
    setPublishedCategory(choice.category)
    choice.setCategory(null)
    announce(t('publishing.batch.queued', { count: next.length }))
    focusFollow()
  }

  return (
    <section aria-labelledby={`${id}-title`} className={cardClass} data-testid="catalogue-publish">
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {t('publishing.batch.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('publishing.batch.intro')}</p>
      </div>

      {published.status === 'error' ? <FormAlert message={t(errorMessageKey(published.error))} /> : null}
      {publications.length > 0 ? (
        <div className="space-y-4">
          <h3
            ref={followRef}
            tabIndex={-1}
            className="font-semibold text-slate-900 focus:outline-none"
            data-testid="batch-publications-title"
          >
            {t('publishing.batch.publicationsTitle')}
          </h3>
          <ul className="space-y-4">
            {publications.map((publication) => (
              <li key={publication.id} className="rounded-xl border border-slate-200 p-3 sm:p-4">
                <PublicationStatus
                  id={publication.id}
                  initial={publication}
                  category={publishedCategory}
                  onResubmitted={published.reload}
                />
              </li>
            ))}
          </ul>
          {isComposing ? null : (
            <button type="button" className={buttonClasses('secondary')} onClick={() => setComposing(true)}>
              {t('publishing.batch.publishAgain')}
            </button>
          )}
        </div>
      ) : null}

      {!showsForm ? null : connections.status === 'loading' || published.status === 'loading' ? (
        <Spinner label={t('publishing.panel.loading')} className="text-brand-700" />
      ) : connections.status === 'error' ? (
        <FormAlert message={t('publishing.panel.loadError')} />
      ) : choice.connected.length === 0 ? (
        <NotConnectedNote testId="batch-publish-not-connected" />
      ) : (
        <div className="space-y-4">
          <PublishTarget id={id} choice={choice}>
            {(marketplace, category) => (
              <BatchDraft
                key={`${marketplace}:${category.id}`}
                batchId={props.batchId}
                marketplace={marketplace}
                category={category}
                onChangeCategory={() => choice.setCategory(null)}
                onPublished={handlePublished}
              />
            )}
          </PublishTarget>
        </div>
      )}
    </section>
  )
}

type BatchDraftProps = {
  batchId: string
  marketplace: IntegrationMarketplace
  category: MarketplaceCategory
  onChangeCategory: () => void
  onPublished: (publications: PublicationView[]) => void
}

function BatchDraft(props: BatchDraftProps) {
  const { t } = useI18n()
  const draft = useCategoryDraft(props, props.batchId, (target) =>
    draftCataloguePublish({ ...target, batchId: props.batchId }),
  )
  if (draft.status === 'loading') {
    return <Spinner label={t('publishing.batch.drafting')} className="text-brand-700" />
  }
  if (draft.status === 'error') {
    return (
      <div className="space-y-3">
        <FormAlert message={t(errorMessageKey(draft.error))} />
        <button type="button" className={buttonClasses('secondary')} onClick={props.onChangeCategory}>
          {t('publishing.panel.changeCategory')}
        </button>
      </div>
    )
  }
  return <BatchDraftForm {...props} data={draft.data} />
}

/** What a row lacks, in words: its own required attributes and the listing fields no default gives. */
function lacksOf(
  row: CataloguePublishDraftResponse['rows'][number],
  data: CataloguePublishDraftResponse,
  defaults: DefaultValues,
  fieldLabel: (field: string) => string,
): string[] {
  const attributeName = (attributeId: string) =>
    data.attributes.find((attribute) => attribute.id === attributeId)?.name ?? attributeId
  const fields = row.lacking.filter((field) => !(defaults[field as DefaultName] ?? '').trim())
  return [...row.missing.map(attributeName), ...fields.map(fieldLabel)]
}

function BatchDraftForm(props: BatchDraftProps & { data: CataloguePublishDraftResponse }) {
  const { t, formatNumber } = useI18n()
  const id = useId()
  const { data } = props
  const [answers, setAnswers] = useState<Record<string, FilledAttribute>>({})
  const [excluded, setExcluded] = useState<Set<string>>(new Set())
  const form = useForm<DefaultValues>({
    initialValues: { brand: '', vatRate: '', desi: '', stock: '', origin: '', warrantyMonths: '' },
    validate: (values) => {
      const parsed = batchListingDefaultsSchema.safeParse(readDefaults(values))
      return parsed.success
        ? {}
        : Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), 'invalid']))
    },
    // Nothing goes while a default is wrong, or while no row is ready and chosen.
    refusal: (_values, fieldErrors): TKey | null =>
      Object.keys(fieldErrors).length > 0
        ? 'publishing.resubmit.checkFields'
        : sending === 0
          ? 'publishing.batch.nothingToSend'
          : null,
    // The server names a default at fault as defaults.<name>; the form also says why above the button.
    serverFieldOf: (path) =>
      path.startsWith('defaults.')
        ? ((path.slice('defaults.'.length).split('.')[0] ?? '') as DefaultName)
        : null,
    formErrorWithFieldErrors: true,
    action: async (values) => {
      const response = await publishCatalogue({
        marketplace: props.marketplace,
        categoryId: props.category.id,
        batchId: props.batchId,
        answers: Object.values(answers),
        // Checked against the schema but sent as read: a default the seller left empty is never sent.
        defaults: readDefaults(values) as BatchListingDefaults,
        excludedRowIds: [...excluded],
      })
      props.onPublished(response.publications)
    },
  })
  const defaults = form.values

  const questions = data.questions.flatMap((questionId) => {
    const attribute = data.attributes.find((candidate) => candidate.id === questionId)
    return attribute ? [attribute] : []
  })
  const unanswered = questions.filter((question) => !answers[question.id]).length
  const fieldLabel = (field: string) =>
    field === 'images' ? t('publishing.batch.images') : t(`publishing.panel.fields.${field as DefaultName}`)
  const rows = data.rows.map((row) => ({ row, lacks: lacksOf(row, data, defaults, fieldLabel) }))
  const videoRows = data.rows.filter((row) => row.hasVideo).length
  const sending = rows.filter(({ row, lacks }) => !excluded.has(row.rowId) && lacks.length === 0).length

  return (
    <form {...form.formProps} className="space-y-5" data-testid="batch-publish-form">
      <ChosenCategory category={data.category} onChange={props.onChangeCategory} />

      {questions.length > 0 ? (
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">
            {t('publishing.batch.questionsTitle')}
          </legend>
          <p className="text-sm text-slate-700">{t('publishing.batch.questionsHint')}</p>
          <AttributeAnswerGrid attributes={questions} answers={answers} onChange={setAnswers} />
        </fieldset>
      ) : null}

      {data.defaultsAsked.length > 0 ? (
        <ListingFieldsFieldset
          legend={t('publishing.batch.defaultsTitle')}
          hint={t('publishing.batch.defaultsHint')}
          names={data.defaultsAsked}
          values={defaults}
          invalid={new Set(Object.keys(form.errors))}
          numeric={numericDefaults}
          emptyLabel={t('publishing.panel.chooseValue')}
          testIdPrefix="batch-default-"
          fieldHint={(name) => (name === 'origin' ? t('publishing.panel.originHint') : undefined)}
          onChange={form.setValue}
        />
      ) : null}

      <div className="space-y-2">
        <h3 id={`${id}-rows`} className="text-sm font-semibold text-slate-900">
          {t('publishing.batch.rowsTitle', { count: formatNumber(data.rows.length) })}
        </h3>
        {videoRows > 0 && videoMarketplaces.includes(props.marketplace) ? (
          <p className="text-sm text-slate-700" data-testid="batch-publish-videos">
            {t('publishing.batch.videosSent', { count: formatNumber(videoRows) })}
            {videoAfterApproval.includes(props.marketplace)
              ? ` ${t('publishing.panel.videoAfterApproval', {
                  marketplace: t(`settings.integrations.${props.marketplace}.name`),
                })}`
              : ''}
          </p>
        ) : null}
        {data.rows.length === 0 ? (
          <p className="text-sm text-slate-700">{t('publishing.batch.noRows')}</p>
        ) : (
          <div className="-mx-5 overflow-x-auto px-5 sm:mx-0 sm:px-0">
            <table aria-labelledby={`${id}-rows`} className="w-full text-left text-sm">
              <thead className="border-b border-slate-200 text-xs text-slate-600">
                <tr>
                  {rowColumns.map((column) => (
                    <th key={column.label} scope="col" className={`py-2 font-medium ${column.className}`}>
                      {t(column.label)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map(({ row, lacks }) => (
                  <tr key={row.rowId} data-testid="batch-publish-row">
                    <td className="py-2 pr-3">
                      <input
                        type="checkbox"
                        className="size-4"
                        checked={!excluded.has(row.rowId)}
                        onChange={(event) => {
                          const isIncluded = event.currentTarget.checked
                          setExcluded((current) => {
                            const next = new Set(current)
                            if (isIncluded) next.delete(row.rowId)
                            else next.add(row.rowId)
                            return next
                          })
                        }}
                        aria-label={t('publishing.batch.includeRow', { line: row.line, sku: row.sku })}
                      />
                    </td>
                    <td className="py-2 pr-3">
                      <span className="block font-medium text-slate-900">{row.title || row.sku}</span>
                      <span className="text-xs text-slate-600">
                        {row.sku} · {t('catalogue.preview.lineN', { line: row.line })}
                      </span>
                    </td>
                    <td className="hidden py-2 pr-3 text-slate-800 sm:table-cell">{row.barcode ?? '—'}</td>
                    <td className="hidden py-2 pr-3 text-slate-800 tabular-nums sm:table-cell">
                      {formatNumber(row.imageCount)}
                      {row.hasVideo && videoMarketplaces.includes(props.marketplace)
                        ? ` + ${t('publishing.batch.video')}`
                        : ''}
                    </td>
                    <td className="py-2" data-testid="batch-publish-lacks">
                      {lacks.length === 0 ? (
                        <span className="text-emerald-800">{t('publishing.batch.ready')}</span>
                      ) : (
                        <span className="text-amber-900">
                          {t('publishing.batch.heldBack', { fields: lacks.join(', ') })}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <p className="text-sm text-slate-700" data-testid="batch-publish-summary">
        {t('publishing.batch.summary', {
          sending: formatNumber(sending),
          total: formatNumber(data.rows.length),
        })}
        {unanswered > 0 ? ` ${t('publishing.batch.unanswered', { count: unanswered })}` : ''}
      </p>
      {form.formError ? <FormAlert message={form.formError} className="mb-0" /> : null}
      <PublishButton
        marketplace={props.marketplace}
        isSending={form.isBusy}
        className={buttonClasses('primary', 'md', 'w-full sm:w-auto')}
        testId="batch-publish-submit"
        aria-busy={form.isBusy}
      />
    </form>
  )
}

/** The defaults given, as the request takes them (numbers as numbers); an empty one is left out. */
function readDefaults(values: DefaultValues): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  for (const [name, text] of Object.entries(values) as [DefaultName, string][]) {
    const trimmed = text.trim()
    if (trimmed === '') continue
    raw[name] =
      name === 'vatRate'
        ? Number(trimmed)
        : numericDefaults.has(name)
          ? numberOf(trimmed)
          : name === 'origin'
            ? trimmed.toLocaleUpperCase('en')
            : trimmed
  }
  return raw
}
