import { GenerateButton } from '#web/features/generations/components/generate-button.tsx'
import { StudioResultPanel } from '#web/features/generations/components/studio-result-panel.tsx'
import { useStudioJob } from '#web/features/generations/hooks/use-studio-job.ts'
import { isBlocked, modeQuota } from '#web/features/generations/mode-quota.ts'
import { MarketplacePanel } from '#web/features/marketplaces/components/marketplace-panel.tsx'
import { usePreferredRatio } from '#web/features/marketplaces/hooks/use-preferred-ratio.ts'
import { getSettings } from '#web/features/settings/api/settings-api.ts'
import { PhotoDropZone } from '#web/features/studio/components/photo-drop-zone.tsx'
import { PromptField } from '#web/features/studio/components/prompt-field.tsx'
import { RatioChoice, StudioLayout } from '#web/features/studio/components/studio-layout.tsx'
import { usePhotoUpload } from '#web/features/studio/hooks/use-photo-upload.ts'
import { getUsage } from '#web/features/usage/api/get-usage.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'
import { useForm } from '#web/lib/use-form.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { useSceneSuggestions } from '../scene-suggestions.ts'

/** Fashion Content: a garment on a model (optionally the model of a reference photo), then a video. */
export function FashionPage() {
  const { t } = useI18n()
  const styleSuggestions = useSceneSuggestions('fashion')
  useDocumentTitle(t('studio.fashion.documentTitle'))
  const garment = usePhotoUpload()
  const reference = usePhotoUpload()
  // Meters and "left this period" follow every job (and every refusal): settling reloads usage.
  const usage = useResource(getUsage)
  const settings = useResource(getSettings)
  const studio = useStudioJob({ onSettled: usage.reload })
  // Said before Generate: the built-in studio puts no garment on a person.
  const isImageOffline = settings.status === 'ready' && settings.data.studio.image === 'offline'
  const [ratio, setRatio] = usePreferredRatio('fashion')

  const imageQuota = modeQuota('image', usage, settings)
  const garmentAsset = garment.state.status === 'ready' ? garment.state.asset : null
  const referenceAsset = reference.state.status === 'ready' ? reference.state.asset : null
  // A reference that is still uploading or was refused must not be silently left out.
  const isReferencePending = reference.state.status === 'uploading' || reference.state.status === 'failed'
  const isDisabled =
    !garmentAsset ||
    isReferencePending ||
    studio.isBusy ||
    isBlocked(imageQuota) ||
    imageQuota.kind === 'loading'

  const form = useForm({
    initialValues: { prompt: '' },
    canSubmit: () => !isDisabled,
    // The job's own state says how a start went (studio.startError, the result panel), so the
    // form is ready for the next Generate whatever happened.
    repeatable: true,
    action: async (values) => {
      if (!garmentAsset) return
      await studio.start({
        tool: 'fashion',
        mode: 'image',
        imageAssetId: garmentAsset.id,
        ...(referenceAsset ? { referenceAssetId: referenceAsset.id } : {}),
        aspectRatio: ratio,
        prompt: values.prompt,
      })
    },
  })

  return (
    <StudioLayout
      title={t('studio.fashion.title')}
      subtitle={t(isImageOffline ? 'studio.fashion.offlineSubtitle' : 'studio.fashion.subtitle')}
      form={form.formProps}
      result={
        <StudioResultPanel
          studio={studio}
          videoQuota={modeQuota('video', usage, settings)}
          autoPlayVideo
          isVideoAi={settings.status === 'ready' && settings.data.studio.video === 'ai'}
          marketplace={(generation) => <MarketplacePanel key={generation.id} generation={generation} />}
        />
      }
    >
      <PhotoDropZone
        label={t('studio.upload.garmentLabel')}
        state={garment.state}
        onChoose={(file) => {
          studio.reset()
          garment.choose(file)
        }}
        onRemove={() => {
          garment.clear()
          studio.reset()
        }}
        disabled={studio.isStarting}
        testId="garment-photo"
      />
      <PhotoDropZone
        label={t('studio.upload.referenceLabel')}
        hint={t('studio.upload.referenceHint')}
        state={reference.state}
        onChoose={reference.choose}
        onRemove={reference.clear}
        disabled={studio.isStarting}
        testId="reference-photo"
      />
      {isImageOffline ? (
        <div
          className="space-y-1 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="reference-note"
        >
          <p>
            {reference.state.status === 'empty'
              ? t('studio.fashion.offlineWithoutReference')
              : t('studio.fashion.offlineWithReference')}
          </p>
          <p>{t('studio.fashion.offlineHowToModel')}</p>
        </div>
      ) : (
        <p className="rounded-xl bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="reference-note">
          {reference.state.status === 'empty'
            ? t('studio.fashion.withoutReference')
            : t('studio.fashion.withReference')}
        </p>
      )}
      <RatioChoice value={ratio} onChange={setRatio} />
      <PromptField
        label={t('studio.prompt.styleLabel')}
        placeholder={t('studio.prompt.stylePlaceholder')}
        tip={t('studio.prompt.styleTip')}
        value={form.values.prompt}
        onChange={(text) => form.setValue('prompt', text)}
        suggestions={styleSuggestions}
      />
      <GenerateButton
        label={t('studio.generate.fashion')}
        quota={imageQuota}
        hasPhoto={garment.state.status !== 'empty'}
        isBusy={studio.isBusy}
        isStarting={studio.isStarting}
        disabled={isDisabled}
        startError={studio.startError}
      />
    </StudioLayout>
  )
}
