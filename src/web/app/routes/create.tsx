import type { GenerationMode } from '#shared/contracts/generations.ts'
import type { ViewChoice } from '#shared/scenes.ts'
import { ChoiceGroup } from '#web/components/ui/choice-group.tsx'
import { GenerateButton } from '#web/features/generations/components/generate-button.tsx'
import { StudioResultPanel } from '#web/features/generations/components/studio-result-panel.tsx'
import { useStudioJob } from '#web/features/generations/hooks/use-studio-job.ts'
import { isBlocked, modeQuota } from '#web/features/generations/mode-quota.ts'
import { MarketplacePanel } from '#web/features/marketplaces/components/marketplace-panel.tsx'
import { usePreferredRatio } from '#web/features/marketplaces/hooks/use-preferred-ratio.ts'
import { LazyPublishPanel } from '#web/features/publishing/components/publish-panel-lazy.tsx'
import { getSettings } from '#web/features/settings/api/settings-api.ts'
import { KeepProductOption } from '#web/features/studio/components/keep-product-option.tsx'
import { PhotoDropZone } from '#web/features/studio/components/photo-drop-zone.tsx'
import { ProductDetailsFields } from '#web/features/studio/components/product-details-fields.tsx'
import { PromptField } from '#web/features/studio/components/prompt-field.tsx'
import { SceneViewChoice } from '#web/features/studio/components/scene-view-choice.tsx'
import { RatioChoice, StudioLayout } from '#web/features/studio/components/studio-layout.tsx'
import { createRequest } from '#web/features/studio/create-request.ts'
import { usePhotoUpload } from '#web/features/studio/hooks/use-photo-upload.ts'
import { type DetailsForm, emptyDetailsForm, featuresProblem } from '#web/features/studio/product-details.ts'
import { getUsage } from '#web/features/usage/api/get-usage.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'
import { useForm } from '#web/lib/use-form.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { useSceneSuggestions } from '../scene-suggestions.ts'

/** What the Generate form holds besides the photo and the ratio (the seller's preference, kept apart). */
type GenerateValues = DetailsForm & {
  mode: GenerationMode
  prompt: string
  keepProduct: boolean
  view: ViewChoice
}

const initialValues: GenerateValues = {
  ...emptyDetailsForm,
  mode: 'image',
  prompt: '',
  keepProduct: false,
  view: 'auto',
}

/** Create Content: one product photo to an edited image, a video or Turkish SEO copy. */
export function CreatePage() {
  const { t } = useI18n()
  const sceneSuggestions = useSceneSuggestions('product')
  useDocumentTitle(t('studio.create.documentTitle'))
  const photo = usePhotoUpload()
  // Meters and "left this period" follow every job (and every refusal): settling reloads usage.
  const usage = useResource(getUsage)
  const settings = useResource(getSettings)
  const studio = useStudioJob({ onSettled: usage.reload })
  const [ratio, setRatio] = usePreferredRatio('product')
  // canSubmit and action run when the form is sent, so they read this render's photo and quota
  // (worked out below from the chosen mode).
  const form = useForm<GenerateValues>({
    initialValues,
    canSubmit: () => !isDisabled,
    // The key features field already shows what is wrong, while typing; Generate takes the
    // seller there (the first invalid field) instead of sending.
    validate: (values) => ({ features: featuresProblem(values.features) ? 'invalid' : undefined }),
    // The job's own state says how a start went (studio.startError, the result panel), so the
    // form is ready for the next Generate whatever happened.
    repeatable: true,
    action: async (values) => {
      if (!asset) return
      await studio.start(
        createRequest({
          mode: values.mode,
          imageAssetId: asset.id,
          prompt: values.prompt,
          ratio,
          details: values,
          keepProduct: values.keepProduct,
          view: values.view,
        }),
      )
    },
  })
  const { mode } = form.values

  const quota = modeQuota(mode, usage, settings)
  const asset = photo.state.status === 'ready' ? photo.state.asset : null
  const hasPhoto = photo.state.status !== 'empty'
  const isDisabled =
    !asset ||
    studio.isBusy ||
    photo.state.status === 'uploading' ||
    isBlocked(quota) ||
    quota.kind === 'loading'

  function removePhoto() {
    photo.clear()
    studio.reset()
  }

  const label = t(
    mode === 'image'
      ? 'studio.generate.image'
      : mode === 'video'
        ? 'studio.generate.video'
        : 'studio.generate.seo',
  )

  return (
    <StudioLayout
      title={t('studio.create.title')}
      subtitle={t('studio.create.subtitle')}
      form={form.formProps}
      result={
        <StudioResultPanel
          studio={studio}
          videoQuota={modeQuota('video', usage, settings)}
          isVideoAi={settings.status === 'ready' && settings.data.studio.video === 'ai'}
          marketplace={(generation, madeFrom) => (
            <div key={generation.id} className="space-y-4">
              <MarketplacePanel generation={generation} />
              {/* A video is published with the image it was made from (the listing offers it). */}
              <LazyPublishPanel generation={madeFrom ?? generation} />
            </div>
          )}
        />
      }
    >
      <PhotoDropZone
        label={t('studio.upload.label')}
        state={photo.state}
        onChoose={(file) => {
          studio.reset()
          photo.choose(file)
        }}
        onRemove={removePhoto}
        disabled={studio.isStarting}
        testId="product-photo"
      />
      <ChoiceGroup<GenerationMode>
        legend={t('studio.type.legend')}
        name="mode"
        value={mode}
        onChange={(next) => form.setValue('mode', next)}
        columns={3}
        choices={[
          { value: 'image', label: t('studio.type.image'), hint: t('studio.type.imageHint') },
          { value: 'video', label: t('studio.type.video'), hint: t('studio.type.videoHint') },
          { value: 'seo', label: t('studio.type.seo'), hint: t('studio.type.seoHint') },
        ]}
      />
      {mode !== 'seo' ? (
        <>
          <RatioChoice value={ratio} onChange={setRatio} />
          <PromptField
            label={mode === 'video' ? t('studio.prompt.videoLabel') : t('studio.prompt.label')}
            placeholder={
              mode === 'video' ? t('studio.prompt.videoPlaceholder') : t('studio.prompt.placeholder')
            }
            tip={t('studio.prompt.tip')}
            value={form.values.prompt}
            onChange={(text) => form.setValue('prompt', text)}
            suggestions={mode === 'video' ? [] : sceneSuggestions}
          />
          {mode === 'image' ? (
            <>
              <SceneViewChoice value={form.values.view} onChange={(next) => form.setValue('view', next)} />
              <KeepProductOption
                checked={form.values.keepProduct}
                onChange={(checked) => form.setValue('keepProduct', checked)}
              />
            </>
          ) : null}
        </>
      ) : null}
      <ProductDetailsFields value={form.values} onChange={(field, text) => form.setValue(field, text)} />
      <GenerateButton
        label={label}
        quota={quota}
        hasPhoto={hasPhoto}
        isBusy={studio.isBusy}
        isStarting={studio.isStarting}
        disabled={isDisabled}
        startError={studio.startError}
      />
    </StudioLayout>
  )
}
