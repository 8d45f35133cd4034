import { useEffect, useId, useMemo, useRef, useState } from 'react'
import {
  type BatchOutputs,
  type BatchOutputView,
  type BatchRowView,
  type BatchView,
  type RowCopyView,
  reviewLimits,
} from '#shared/contracts/catalogue.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { checkCopy } from '#shared/marketplaces/check.ts'
import { isMarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import { seoLimits } from '#shared/seo.ts'
import type { FieldReason } from '#shared/validation.ts'
import { Button } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { type FieldControl, FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { ModalDialog } from '#web/components/ui/modal-dialog.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useAnnouncer } from '#web/lib/use-announcer.ts'
import { useForm } from '#web/lib/use-form.ts'
import { useResource } from '#web/lib/use-resource.ts'
import {
  getRowCopy,
  regenerateRow,
  revertRowCopy,
  saveRowCopy,
  setRowExclusions,
} from '../api/catalogue-api.ts'
import {
  type CopyDraft,
  type CopyField,
  type CopyProblem,
  copyProblems,
  draftOf,
  featureCount,
  fieldOfPath,
  keywordCount,
  lengthOf,
  requestOf,
} from '../review-copy.ts'

const sectionClass = 'mt-6 border-t border-slate-200 pt-5'

/**
 * One product's review before the export, in a dialog (a sheet from the bottom on a phone): its
 * pictures, each made output with whether it goes into the ZIP, its SEO copy to edit with live
 * counters against the limits and the batch's marketplace copy check, and making it again.
 */
export function ProductReview(props: {
  batchId: string
  presetId: string | null
  outputs: BatchOutputs | null
  row: BatchRowView
  onChange: (view: BatchView) => void
  /** The copy was saved or reverted: the batch list marks the row (the view has no event for it). */
  onCopyEdited: (rowId: string, isEdited: boolean) => void
  onClose: () => void
}) {
  const { t } = useI18n()
  const { row } = props
  const [announcement, announce] = useAnnouncer()
  // The copy is read again once a new SEO output has finished (a regenerated copy).
  const seo = row.outputs.find((output) => output.mode === 'seo')
  const copyKey = `${row.id}:${seo?.generationId ?? ''}:${seo?.status ?? ''}`
  const copy = useResource((signal) => getRowCopy(props.batchId, row.id, signal), { key: copyKey })
  return (
    <ModalDialog
      title={t('catalogue.review.title', { name: row.name })}
      description={<p>{t('catalogue.review.subtitle', { sku: row.sku, line: row.line })}</p>}
      onClose={props.onClose}
      size="lg"
    >
      <p role="status" aria-live="polite" className="sr-only" data-testid="review-announcer">
        {announcement}
      </p>
      <ReviewFiles batchId={props.batchId} row={row} onChange={props.onChange} announce={announce} />
      <section aria-labelledby={`${row.id}-copy`} className={sectionClass}>
        <h3 id={`${row.id}-copy`} className="text-base font-semibold text-slate-900">
          {t('catalogue.review.copyTitle')}
        </h3>
        <LoadState
          resource={copy}
          loadingLabel={t('catalogue.review.copyLoading')}
          errorTitle={t('catalogue.review.copyLoadError')}
          retryLabel={t('catalogue.review.copyRetry')}
          variant="inline"
          className="mt-3 text-red-800"
        >
          {(data) => (
            <CopyForm
              key={copyKey}
              batchId={props.batchId}
              presetId={props.presetId}
              copy={data}
              onSaved={(next) => {
                copy.replace(next)
                props.onCopyEdited(row.id, next.edited !== null)
              }}
              announce={announce}
            />
          )}
        </LoadState>
      </section>
      <Regenerate
        batchId={props.batchId}
        outputs={props.outputs}
        row={row}
        onChange={props.onChange}
        announce={announce}
      />
      <div className="mt-6 flex justify-end border-t border-slate-200 pt-5">
        <Button variant="secondary" onClick={props.onClose} className="w-full sm:w-auto">
          {t('catalogue.review.close')}
        </Button>
      </div>
    </ModalDialog>
  )
}

function outputLabelKey(output: BatchOutputView): TKey {
  if (output.mode === 'video') return 'catalogue.review.output.video'
  if (output.mode === 'seo') return 'catalogue.review.output.seo'
  return output.tool === 'fashion' ? 'catalogue.review.output.fashion' : 'catalogue.review.output.studio'
}

/** What each part of a row's review gets: the batch and row, where a changed batch goes, the announcer. */
type RowPartProps = {
  batchId: string
  row: BatchRowView
  onChange: (view: BatchView) => void
  announce: (message: string) => void
}

/** The product's photo and its made pictures, each succeeded one with "In the ZIP". */
function ReviewFiles(props: RowPartProps) {
  const { t } = useI18n()
  const { row } = props
  const files = row.outputs.filter((output) => output.mode !== 'seo')
  const [savingId, setSavingId] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  const hintId = useId()

  async function handleToggle(output: BatchOutputView, isIncluded: boolean) {
    // One change at a time (not disabled while saving: a disabled box would lose the focus).
    if (savingId !== null) return
    const excluded = new Set(row.excludedResults)
    if (isIncluded) excluded.delete(output.generationId)
    else excluded.add(output.generationId)
    setSavingId(output.generationId)
    setError(null)
    try {
      props.onChange(await setRowExclusions(props.batchId, row.id, [...excluded]))
      props.announce(t('catalogue.review.filesSaved'))
    } catch (caught) {
      setError(caught)
    } finally {
      setSavingId(null)
    }
  }

  return (
    <section aria-labelledby={`${row.id}-files`} className="mt-5">
      <h3 id={`${row.id}-files`} className="text-base font-semibold text-slate-900">
        {files.some((output) => output.mode === 'video')
          ? t('catalogue.review.filesTitle')
          : t('catalogue.review.filesTitleImages')}
      </h3>
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {files.length > 0 ? t('catalogue.review.filesHint') : t('catalogue.review.filesNone')}
      </p>
      {error ? <FormAlert message={t(errorMessageKey(error))} className="mt-3" /> : null}
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="review-files">
        {row.photo ? (
          <li className="min-w-0">
            <img
              src={row.photo.url}
              alt={t('catalogue.review.originalPhoto')}
              className="aspect-square w-full rounded-lg bg-slate-100 object-cover ring-1 ring-slate-200"
            />
            <p className="mt-1.5 text-xs text-slate-600">{t('catalogue.review.originalPhoto')}</p>
          </li>
        ) : null}
        {files.map((output) => {
          const label = t(outputLabelKey(output))
          const isIncluded = !row.excludedResults.includes(output.generationId)
          const isDone = output.status === 'succeeded'
          return (
            <li key={output.generationId} className="min-w-0" data-testid="review-file">
              <div className="aspect-square w-full overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200">
                {output.thumbnail ? (
                  <img
                    src={output.thumbnail.url}
                    alt={label}
                    className={`size-full object-cover ${isIncluded ? '' : 'opacity-40 grayscale'}`}
                  />
                ) : null}
              </div>
              <p className="mt-1.5 text-xs font-medium text-slate-900">{label}</p>
              {isDone ? (
                <label className="mt-1 flex min-h-11 items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="size-5 accent-brand-700"
                    checked={isIncluded}
                    aria-label={`${t('catalogue.review.include')}: ${label}`}
                    aria-describedby={hintId}
                    onChange={(event) => void handleToggle(output, event.currentTarget.checked)}
                  />
                  <span>{t('catalogue.review.include')}</span>
                  {savingId === output.generationId ? (
                    <span className="text-xs text-slate-500">{t('catalogue.review.filesSaving')}</span>
                  ) : null}
                </label>
              ) : (
                <p className="mt-1 text-sm text-slate-600">{t(outputStateKey(output.status))}</p>
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function outputStateKey(status: BatchOutputView['status']): TKey {
  if (status === 'failed') return 'catalogue.review.outputState.failed'
  if (status === 'canceled') return 'catalogue.review.outputState.canceled'
  return status === 'running' ? 'catalogue.review.outputState.running' : 'catalogue.review.outputState.queued'
}

function problemText(t: ReturnType<typeof useI18n>['t'], problem: CopyProblem): string {
  switch (problem.kind) {
    case 'featuresCount':
      return t('catalogue.review.problems.featuresCount', {
        min: seoLimits.featuresMin,
        max: seoLimits.featuresMax,
      })
    case 'featureTooLong':
      return t('catalogue.review.problems.featureTooLong', { max: reviewLimits.featureMax })
    case 'keywordsCount':
      return t('catalogue.review.problems.keywordsCount', { max: seoLimits.keywords })
    case 'keywordTooLong':
      return t('catalogue.review.problems.keywordTooLong', { max: reviewLimits.keywordMax })
    case 'separator':
    case 'path':
    case 'promotional':
      return t(`catalogue.review.problems.${problem.kind}`, { keyword: problem.keyword })
    default:
      return t(`catalogue.review.problems.${problem.kind}`)
  }
}

/** A counter under a field: characters against the limit, red (and said) once past it. */
function Counter(props: { count: number; max: number }) {
  const { t } = useI18n()
  const over = props.count - props.max
  return (
    <span className={over > 0 ? 'font-semibold text-red-700' : undefined} data-testid="counter">
      {over > 0
        ? t('catalogue.review.counterOver', { count: props.count, max: props.max, over })
        : t('catalogue.review.counter', { count: props.count, max: props.max })}
    </span>
  )
}

/** Why a copy field is wrong: the review's own check, or the server's reason for it. */
type CopyReason = CopyProblem | { kind: 'server'; reason: FieldReason }

/** What the counters cannot show as one types (an empty or short field): said once a save was tried. */
const waitsForAttempt: ReadonlySet<CopyProblem['kind']> = new Set([
  'required',
  'featuresCount',
  'keywordsCount',
])

function CopyForm(props: {
  batchId: string
  presetId: string | null
  copy: RowCopyView
  onSaved: (copy: RowCopyView) => void
  announce: (message: string) => void
}) {
  const { t } = useI18n()
  const { copy } = props
  const form = useForm<CopyDraft, CopyReason>({
    initialValues: draftOf(copy.edited ?? copy.generated),
    // Length is shown by the counter as one types; other problems once a save was tried.
    validateOn: 'change',
    validate: (values, { isAttempted }) => {
      const problems = copyProblems(values)
      if (isAttempted) return problems
      return Object.fromEntries(
        Object.entries(problems).filter(([, problem]) => !waitsForAttempt.has(problem.kind)),
      )
    },
    describe: (reason) =>
      reason.kind === 'server' ? t(`errors.field.${reason.reason}`) : problemText(t, reason),
    // The server checks each feature and keyword (`keywords.0`); the form edits them a line each.
    serverFieldOf: fieldOfPath,
    serverReason: (reason) => ({ kind: 'server', reason }),
    // Inside the dialog the seller works down the copy: the alert says what went wrong, focus stays.
    focusOnError: false,
    formErrorWithFieldErrors: true,
    repeatable: true,
    action: async (values) => {
      props.onSaved(await saveRowCopy(props.batchId, copy.rowId, requestOf(values)))
      props.announce(t('catalogue.review.saved'))
    },
  })
  const draft = form.values
  const alertId = useId()
  const hasProblems = Object.keys(copyProblems(draft)).length > 0
  const titleLength = lengthOf(draft.title)
  const descriptionLength = lengthOf(draft.description)
  const wasOver = useRef({ title: false, description: false })

  // Passing a limit is said once, when it happens (the counters themselves are not live).
  useEffect(() => {
    const now = {
      title: titleLength > seoLimits.titleMax,
      description: descriptionLength > seoLimits.descriptionMax,
    }
    if (now.title && !wasOver.current.title) {
      props.announce(
        `${t('catalogue.review.fields.title')}: ${t('catalogue.review.counterOver', { count: titleLength, max: seoLimits.titleMax, over: titleLength - seoLimits.titleMax })}`,
      )
    }
    if (now.description && !wasOver.current.description) {
      props.announce(
        `${t('catalogue.review.fields.description')}: ${t('catalogue.review.counterOver', { count: descriptionLength, max: seoLimits.descriptionMax, over: descriptionLength - seoLimits.descriptionMax })}`,
      )
    }
    wasOver.current = now
  }, [titleLength, descriptionLength, props.announce, t])

  const checks = useMemo(() => {
    if (!props.presetId || !isMarketplaceId(props.presetId)) return null
    const profile = getProfile(props.presetId)
    const request = requestOf(draft)
    const results = checkCopy(profile, { ...request, brand: copy.brand })
    return {
      profileId: props.presetId,
      results: results.filter((r) => r.status === 'fail' || r.status === 'warn'),
    }
  }, [props.presetId, draft, copy.brand])

  /** A field's control: an input for one line (the title), else a textarea of `rows` lines. */
  function copyControl(field: CopyField, rows?: number) {
    return (control: FieldControl) => {
      const { name, value, onChange } = form.input(field)
      const bound = { ...control, name, className: inputClasses, value, onChange }
      return rows === undefined ? <input {...bound} /> : <textarea {...bound} rows={rows} />
    }
  }

  function handleRevert() {
    void form.run('revert', async () => {
      const next = await revertRowCopy(props.batchId, copy.rowId)
      form.resetTo(draftOf(next.generated))
      props.onSaved(next)
      // The button goes with the edit: the focus moves to the title, not out of the dialog.
      form.formProps.ref.current?.querySelector<HTMLInputElement>('input[name="title"]')?.focus()
      props.announce(t('catalogue.review.reverted'))
    })
  }

  const showAlert = form.formError !== null || (form.isAttempted && hasProblems)
  // The fields of one item a line, each counted against its limits.
  const listFields = [
    {
      field: 'features',
      counter: t('catalogue.review.featuresCounter', {
        count: featureCount(draft),
        min: seoLimits.featuresMin,
        max: seoLimits.featuresMax,
      }),
      rows: seoLimits.featuresMax,
    },
    {
      field: 'keywords',
      counter: t('catalogue.review.keywordsCounter', { count: keywordCount(draft), max: seoLimits.keywords }),
      rows: seoLimits.keywords,
    },
  ] as const
  return (
    <form {...form.formProps} className="mt-3 space-y-4" data-testid="review-copy">
      <p className="text-sm text-slate-600" data-testid="copy-source">
        {copy.edited
          ? t('catalogue.review.copyEditedNote')
          : copy.generated
            ? t('catalogue.review.copyGenerated')
            : t('catalogue.review.copyNone')}
      </p>
      {showAlert ? (
        <FormAlert id={alertId} message={form.formError ?? t('catalogue.review.fixFirst')} className="mb-0" />
      ) : null}
      <FormField
        label={t('catalogue.review.fields.title')}
        description={<Counter count={titleLength} max={seoLimits.titleMax} />}
        error={form.errorText('title')}
        isInvalid={titleLength > seoLimits.titleMax}
      >
        {copyControl('title')}
      </FormField>
      <FormField
        label={t('catalogue.review.fields.description')}
        description={<Counter count={descriptionLength} max={seoLimits.descriptionMax} />}
        error={form.errorText('description')}
        isInvalid={descriptionLength > seoLimits.descriptionMax}
      >
        {copyControl('description', 3)}
      </FormField>
      {listFields.map(({ field, counter, rows }) => (
        <FormField
          key={field}
          label={t(`catalogue.review.fields.${field}`)}
          hint={t(`catalogue.review.fields.${field}Hint`)}
          description={<span data-testid={`${field}-counter`}>{counter}</span>}
          error={form.errorText(field)}
        >
          {copyControl(field, rows)}
        </FormField>
      ))}
      {checks ? <CopyCheck profileId={checks.profileId} results={checks.results} /> : null}
      <div className="flex flex-col gap-3 sm:flex-row">
        {/* Not disabled while busy (the focus would drop out of the dialog): a second press waits. */}
        <Button
          type="submit"
          aria-busy={form.activeAction === 'submit'}
          aria-describedby={showAlert ? alertId : undefined}
        >
          {form.activeAction === 'submit' ? t('catalogue.review.saving') : t('catalogue.review.save')}
        </Button>
        {copy.edited ? (
          <Button variant="secondary" aria-busy={form.activeAction === 'revert'} onClick={handleRevert}>
            {form.activeAction === 'revert' ? t('catalogue.review.reverting') : t('catalogue.review.revert')}
          </Button>
        ) : null}
      </div>
    </form>
  )
}

/** The batch marketplace's copy rules on what is typed: what fails or needs a look, else that it passes. */
function CopyCheck(props: {
  profileId: Parameters<typeof getProfile>[0]
  results: ReturnType<typeof checkCopy>
}) {
  const { t } = useI18n()
  const marketplace = t(`marketplaces.profiles.${props.profileId}` as TKey)
  const titleId = useId()
  return (
    <section aria-labelledby={titleId} className="rounded-xl bg-slate-50 p-4" data-testid="review-check">
      <h4 id={titleId} className="text-sm font-semibold text-slate-900">
        {t('catalogue.review.checkTitle', { marketplace })}
      </h4>
      <p className="mt-0.5 text-xs text-slate-600">{t('catalogue.review.checkHint')}</p>
      {props.results.length === 0 ? (
        <p className="mt-2 text-sm text-emerald-800" data-testid="check-passes">
          {t('catalogue.review.checkPasses', { marketplace })}
        </p>
      ) : (
        <ul className="mt-2 space-y-2">
          {props.results.map((result) => (
            <li
              key={result.ruleId}
              className="text-sm"
              data-testid="check-result"
              data-status={result.status}
            >
              <span
                className={`mr-2 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${
                  result.status === 'fail'
                    ? 'bg-red-50 text-red-900 ring-red-200'
                    : 'bg-amber-50 text-amber-900 ring-amber-200'
                }`}
              >
                {t(`marketplaces.status.${result.status}`)}
              </span>
              <span className="font-medium text-slate-900">{t(`marketplaces.rules.${result.ruleId}`)}</span>
              <span className="text-slate-700">: {t(result.reason.key, result.reason.values)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** Making the product again: its copy (no quota), or every output of the batch (with quota). */
function Regenerate(props: RowPartProps & { outputs: BatchOutputs | null }) {
  const { t } = useI18n()
  const { row, outputs } = props
  const [asking, setAsking] = useState<'seo' | 'all' | null>(null)
  const [isBusy, setBusy] = useState(false)
  const confirmRef = useRef<HTMLDivElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  // The button that asked is replaced by the question: focus goes to its answer.
  useEffect(() => {
    if (asking) confirmRef.current?.querySelector('button')?.focus()
  }, [asking])
  const [error, setError] = useState<unknown>(null)
  const busyReasonId = useId()
  const titleId = useId()
  const isRunning = row.state === 'queued' || row.state === 'running'
  const images = (outputs?.studio ? 1 : 0) + (outputs?.fashion ? 1 : 0)
  const videos = outputs?.video ? 1 : 0
  const canMakeAll = images + videos > 0

  async function handleConfirm() {
    if (!asking || isBusy) return
    setBusy(true)
    setError(null)
    try {
      props.onChange(await regenerateRow(props.batchId, row.id, { scope: asking }))
      setAsking(null)
      props.announce(t('catalogue.review.regenerated'))
      // The question goes and the buttons wait for the new outputs: the focus stays in the section.
      headingRef.current?.focus()
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby={titleId} className={sectionClass}>
      <h3
        id={titleId}
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 outline-none"
      >
        {t('catalogue.review.regenerateTitle')}
      </h3>
      {isRunning ? (
        <p id={busyReasonId} className="mt-1 text-sm text-slate-600">
          {t('catalogue.review.regenerateBusy')}
        </p>
      ) : null}
      {error ? <FormAlert message={t(errorMessageKey(error))} className="mt-3" /> : null}
      {asking ? (
        <div
          ref={confirmRef}
          className="mt-3 rounded-xl border border-amber-200 bg-amber-50 p-4"
          data-testid="regenerate-confirm"
        >
          <p className="text-sm text-amber-950">
            {asking === 'seo'
              ? t('catalogue.review.regenerateConfirmCopy')
              : t('catalogue.review.regenerateConfirmAll')}
          </p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row">
            <Button onClick={() => void handleConfirm()} aria-busy={isBusy}>
              {isBusy ? t('catalogue.review.regenerating') : t('catalogue.review.regenerateConfirm')}
            </Button>
            <Button variant="secondary" onClick={() => setAsking(null)} disabled={isBusy}>
              {t('catalogue.review.regenerateKeep')}
            </Button>
          </div>
        </div>
      ) : (
        <div className={`mt-3 grid gap-4 ${canMakeAll ? 'sm:grid-cols-2' : ''}`}>
          <RegenerateChoice
            label={t('catalogue.review.regenerateCopy')}
            hint={t('catalogue.review.regenerateCopyHint')}
            busyReasonId={isRunning ? busyReasonId : undefined}
            onChoose={() => setAsking('seo')}
          />
          {canMakeAll ? (
            <RegenerateChoice
              label={t('catalogue.review.regenerateAll')}
              hint={t('catalogue.review.regenerateAllHint', {
                units: [
                  images > 0
                    ? t(images === 1 ? 'catalogue.review.unitImageOne' : 'catalogue.review.unitImageOther', {
                        count: images,
                      })
                    : null,
                  videos > 0 ? t('catalogue.review.unitVideoOne') : null,
                ]
                  .filter(Boolean)
                  .join(', '),
              })}
              busyReasonId={isRunning ? busyReasonId : undefined}
              onChoose={() => setAsking('all')}
            />
          ) : null}
        </div>
      )}
    </section>
  )
}

/** One way to make a row again: its button, disabled while the row runs, and what it costs. */
function RegenerateChoice(props: {
  label: string
  hint: string
  /** The reason the button is disabled, while it is. */
  busyReasonId: string | undefined
  onChoose: () => void
}) {
  return (
    <div>
      <Button
        variant="secondary"
        className="w-full"
        disabled={props.busyReasonId !== undefined}
        aria-describedby={props.busyReasonId}
        onClick={props.onChoose}
      >
        {props.label}
      </Button>
      <p className="mt-1.5 text-xs text-slate-600">{props.hint}</p>
    </div>
  )
}
