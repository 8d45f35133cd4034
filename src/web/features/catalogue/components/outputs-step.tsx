import { Fragment, type ReactNode, useId, useState } from 'react'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import type { BatchSummary, BatchView, QuotaShortDetails } from '#shared/contracts/catalogue.ts'
import { defaultRatioFor } from '#shared/marketplaces/default-ratio.ts'
import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import type { AspectRatio } from '#shared/scenes.ts'
import { Button, ButtonLink } from '#web/components/ui/button.tsx'
import { ChoiceGroup } from '#web/components/ui/choice-group.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { FormField, inputClasses } from '#web/components/ui/form-field.tsx'
import { ratioChoices } from '#web/components/ui/ratio-choices.ts'
import { SubmitButton } from '#web/components/ui/submit-button.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import type { ResourceState } from '#web/lib/use-resource.ts'
import { startBatch } from '../api/catalogue-api.ts'
import {
  initialOutputChoices,
  isShort,
  type OutputChoices,
  quotaLeft,
  quotaNeeded,
  quotaShortDetails,
  toBatchOutputs,
} from '../batch-quota.ts'
import { countText } from '../format.ts'
import { marketplacePresetIds } from '../presets.ts'
import { QuotaShortPanel } from './quota-short-panel.tsx'

/** The scene prompt with its one-click suggestions; the page hands in the studio's field. */
export type ScenePromptSlot = (props: {
  value: string
  onChange: (value: string) => void
  disabled: boolean
}) => ReactNode

type OutputKey = 'studio' | 'fashion' | 'video' | 'seo'

/** What refuses a start (the message keys under `catalogue.outputs`). */
type OutputsProblem = 'chooseOne' | 'promptRequired'

/**
 * Step 3: what every product gets (studio image, fashion image, video, SEO copy), the marketplace
 * preset, and the quota the batch takes against what is left. Start sends it all; when the server
 * says the quota is short, the user chooses to start the products that fit, or buys credits.
 */
export function OutputsStep(props: {
  batch: BatchSummary
  usage: ResourceState<UsageResponse>
  hasOwnKey: boolean
  /** The seller's default marketplace: the preset and the ratios start from it (null: none chosen). */
  marketplace: MarketplaceId | null
  renderScenePrompt: ScenePromptSlot
  onBack: () => void
  onStarted: (view: BatchView) => void
}) {
  const { t } = useI18n()
  // The marketplace preset and the ratios start from the seller's marketplace until changed here.
  const marketplace = props.marketplace
  const [chosenPresetId, setPresetId] = useState<string | null>(null)
  const presetId = chosenPresetId ?? marketplace ?? ''
  const [chosenRatios, setChosenRatios] = useState<{ studio?: AspectRatio; fashion?: AspectRatio }>({})
  const ratios = {
    studio: chosenRatios.studio ?? defaultRatioFor(marketplace, 'product'),
    fashion: chosenRatios.fashion ?? defaultRatioFor(marketplace, 'fashion'),
  }
  // The server's "quota short" answer, shown as its own panel instead of a message above the form.
  const [short, setShort] = useState<QuotaShortDetails | null>(null)
  const form = useForm<OutputChoices, OutputsProblem>({
    initialValues: initialOutputChoices,
    // Said once a start was tried, then as the choices change.
    validateOn: 'change',
    validate: (values, { isAttempted }) =>
      isAttempted
        ? {
            // Choosing no output is the group's problem: it sits on the first output.
            studio: hasOutputOf(values) ? undefined : 'chooseOne',
            studioPrompt: isPromptMissingOf(values) ? 'promptRequired' : undefined,
          }
        : {},
    describe: (reason) => t(`catalogue.outputs.${reason}`),
    // Every refusal of the server is one message above the button.
    serverFields: {},
    action: (values) => start(values),
  })
  const choices = form.values
  const isStarting = form.isBusy
  const errorId = useId()

  const products = props.batch.productCount
  const needed = quotaNeeded(choices, products)
  const left = quotaLeft(props.usage, props.hasOwnKey)
  const outputsError = form.errorText('studio')
  const promptError = form.errorText('studioPrompt')

  function change<Name extends keyof OutputChoices>(name: Name, value: OutputChoices[Name]) {
    form.setValue(name, value)
    // A new choice needs another look at the quota: the old answer no longer applies.
    setShort(null)
    form.clearFormError()
  }

  async function start(values: OutputChoices, limitRows?: number) {
    try {
      const view = await startBatch(props.batch.id, {
        outputs: toBatchOutputs({ ...values, studioRatio: ratios.studio, fashionRatio: ratios.fashion }),
        presetId: presetId === '' ? null : presetId,
        ...(limitRows === undefined ? {} : { limitRows }),
      })
      props.onStarted(view)
    } catch (caught) {
      setShort(
        caught instanceof ApiError && caught.code === 'CATALOGUE_QUOTA_SHORT'
          ? quotaShortDetails(caught.details)
          : null,
      )
      throw caught
    }
  }

  const outputBox = (key: OutputKey, label: string, hint: string, details?: ReactNode) => (
    <div
      className={`rounded-xl border p-4 ${choices[key] ? 'border-brand-300 bg-brand-50/40' : 'border-slate-200 bg-white'}`}
    >
      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          checked={choices[key]}
          onChange={(event) => change(key, event.currentTarget.checked)}
          disabled={isStarting}
          className="mt-1 size-4 rounded border-slate-300 accent-brand-700"
          aria-describedby={outputsError ? errorId : undefined}
        />
        <span>
          <span className="block font-semibold text-slate-900">{label}</span>
          <span className="block text-sm text-slate-600">{hint}</span>
        </span>
      </label>
      {choices[key] && details ? <div className="mt-4 space-y-4 sm:pl-7">{details}</div> : null}
    </div>
  )

  const ratioChoice = (value: AspectRatio, onChange: (ratio: AspectRatio) => void, name: string) => (
    <ChoiceGroup<AspectRatio>
      legend={t('studio.ratio.legend')}
      name={name}
      value={value}
      onChange={onChange}
      disabled={isStarting}
      choices={ratioChoices(t)}
    />
  )

  return (
    <form {...form.formProps} className="space-y-6">
      <p className="text-sm text-slate-600">
        {countText(t, products, 'catalogue.outputs.introOne', 'catalogue.outputs.introOther')}
      </p>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">{t('catalogue.outputs.legend')}</legend>
        {outputBox(
          'studio',
          t('catalogue.outputs.studio'),
          t('catalogue.outputs.studioHint'),
          <>
            {props.renderScenePrompt({
              value: choices.studioPrompt,
              onChange: (studioPrompt) => change('studioPrompt', studioPrompt),
              disabled: isStarting,
            })}
            {promptError ? (
              <p role="alert" className="text-sm text-red-700">
                {promptError}
              </p>
            ) : null}
            {ratioChoice(
              ratios.studio,
              (studioRatio) => {
                setChosenRatios((current) => ({ ...current, studio: studioRatio }))
                change('studioRatio', studioRatio)
              },
              'studio-ratio',
            )}
          </>,
        )}
        {outputBox(
          'fashion',
          t('catalogue.outputs.fashion'),
          t('catalogue.outputs.fashionHint'),
          ratioChoice(
            ratios.fashion,
            (fashionRatio) => {
              setChosenRatios((current) => ({ ...current, fashion: fashionRatio }))
              change('fashionRatio', fashionRatio)
            },
            'fashion-ratio',
          ),
        )}
        {outputBox(
          'video',
          t('catalogue.outputs.video'),
          t('catalogue.outputs.videoHint'),
          <FormField label={t('catalogue.outputs.videoPrompt')} hint={t('catalogue.file.optional')}>
            {(control) => (
              <textarea
                {...control}
                rows={2}
                maxLength={1000}
                value={choices.videoPrompt}
                disabled={isStarting}
                placeholder={t('studio.prompt.videoPlaceholder')}
                onChange={(event) => change('videoPrompt', event.currentTarget.value)}
                className={`${inputClasses} resize-y`}
              />
            )}
          </FormField>,
        )}
        {outputBox('seo', t('catalogue.outputs.seo'), t('catalogue.outputs.seoHint'))}
        {outputsError ? (
          <p id={errorId} role="alert" className="text-sm text-red-700">
            {outputsError}
          </p>
        ) : null}
      </fieldset>

      <FormField label={t('catalogue.outputs.presetLabel')} description={t('catalogue.outputs.presetHint')}>
        {(control) => (
          <select
            {...control}
            value={presetId}
            disabled={isStarting}
            onChange={(event) => setPresetId(event.currentTarget.value)}
            className={`${inputClasses} sm:max-w-xs`}
            data-testid="preset"
          >
            <option value="">{t('catalogue.presets.none')}</option>
            {marketplacePresetIds.map((id) => (
              <option key={id} value={id}>
                {t(`catalogue.presets.${id}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>

      <section
        aria-labelledby="catalogue-quota-title"
        className="rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm"
      >
        <h3 id="catalogue-quota-title" className="font-semibold text-slate-900">
          {t('catalogue.outputs.quotaTitle')}
        </h3>
        <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1" data-testid="quota-needed">
          {(['images', 'videos'] as const).map((kind) => (
            <Fragment key={kind}>
              <dt className="text-slate-600">{t(`catalogue.outputs.${kind}`)}</dt>
              <dd className="text-slate-900">
                {left.kind === 'metered'
                  ? t('catalogue.outputs.neededLeft', { needed: needed[kind], left: left.left[kind] })
                  : t('catalogue.outputs.needed', { needed: needed[kind] })}
              </dd>
            </Fragment>
          ))}
        </dl>
        <p className="mt-2 text-slate-600">
          {left.kind === 'loading'
            ? t('catalogue.outputs.quotaLoading')
            : left.kind === 'own-key'
              ? t('catalogue.outputs.quotaOwnKey')
              : left.kind === 'no-plan'
                ? t('catalogue.outputs.quotaNoPlan')
                : isShort(needed, left)
                  ? t('catalogue.outputs.quotaShort')
                  : t('catalogue.outputs.quotaEnough')}{' '}
          {choices.seo ? t('catalogue.outputs.seoFree') : null}
        </p>
        {left.kind === 'no-plan' ? (
          <ButtonLink to={href('billing')} variant="secondary" className="mt-3">
            {t('catalogue.outputs.choosePlan')}
          </ButtonLink>
        ) : null}
      </section>

      {short ? (
        <QuotaShortPanel
          details={short}
          total={products}
          isStarting={isStarting}
          onStartFirst={() =>
            void form.run('startFirst', (values) => start(values, short.fits), { sends: true })
          }
        />
      ) : null}
      {form.formError && !short ? <FormAlert message={form.formError} className="mb-0" /> : null}

      <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-5 sm:flex-row sm:justify-between">
        <Button variant="secondary" onClick={props.onBack} disabled={isStarting}>
          {t('catalogue.outputs.back')}
        </Button>
        <SubmitButton
          isBusy={isStarting}
          busyLabel={t('catalogue.outputs.starting')}
          size="md"
          className="w-full sm:w-auto"
        >
          {countText(t, products, 'catalogue.outputs.startOne', 'catalogue.outputs.startOther')}
        </SubmitButton>
      </div>
    </form>
  )
}

function hasOutputOf(choices: OutputChoices): boolean {
  return choices.studio || choices.fashion || choices.video || choices.seo
}

/** A studio image needs a scene to start. */
function isPromptMissingOf(choices: OutputChoices): boolean {
  return choices.studio && choices.studioPrompt.trim() === ''
}
