import { useId, useState } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { ImageSlot, MarketplaceCheckView } from '#shared/contracts/marketplaces.ts'
import type { CheckResult, FixAction } from '#shared/marketplaces/check.ts'
import { isExportFix } from '#shared/marketplaces/export-fix.ts'
import { isMarketplaceId, type MarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import type { MarketplaceProfile } from '#shared/marketplaces/types.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { ChoiceGroup } from '#web/components/ui/choice-group.tsx'
import { CopyButton } from '#web/components/ui/copy-button.tsx'
import { DownloadIcon } from '#web/components/ui/icons.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { ResultPanel } from '#web/components/ui/result-panel.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useResource } from '#web/lib/use-resource.ts'
import { getMarketplaceCheck } from '../api/marketplaces-api.ts'
import { useMarketplacePreference } from '../hooks/use-marketplace-preference.ts'
import { CheckList } from './check-list.tsx'
import { ProfileSelect } from './profile-select.tsx'

/**
 * The "Marketplace" panel on a finished result: choose a profile (starting from the saved
 * preference; a change saves it), for images the slot, then the profile's checklist with its
 * summary, the download made for the profile, and for SEO copy the text fitted to its limits.
 * The select and slot radios stay mounted while a check loads, so focus stays where it was.
 */
export function MarketplacePanel(props: { generation: GenerationView }) {
  const { t } = useI18n()
  const { generation } = props
  const kind = generation.status === 'succeeded' ? generation.result?.type : undefined
  const id = useId()
  const { preferences, saveState, save } = useMarketplacePreference()
  const [chosen, setChosen] = useState<MarketplaceId | null>(null)
  const [slot, setSlot] = useState<ImageSlot>('main')
  const saved = preferences.status === 'ready' ? preferences.data.marketplaceProfile : null
  // The user's choice here wins; until they make one, the saved preference (once known).
  const profileId = chosen ?? saved
  const isPreferenceKnown = preferences.status !== 'loading'
  const check = useResource<MarketplaceCheckView>(
    (signal) => getMarketplaceCheck(generation.id, profileId as MarketplaceId, slot, signal),
    {
      key: `${generation.id}:${profileId}:${kind === 'image' ? slot : 'main'}`,
      isEnabled: kind !== undefined && profileId !== null && isPreferenceKnown,
    },
  )
  if (!kind) return null

  const profileName = profileId ? t(`marketplaces.profiles.${profileId}`) : ''

  function handleProfileChange(value: string) {
    if (!isMarketplaceId(value)) return
    setChosen(value)
    void save(value)
  }

  const statusText =
    saveState === 'saving'
      ? t('marketplaces.panel.saving')
      : saveState === 'saved' && profileId
        ? t('marketplaces.panel.saved', { marketplace: profileName })
        : saveState === 'failed'
          ? t('marketplaces.panel.saveFailed')
          : preferences.status === 'error' && !chosen
            ? t('marketplaces.panel.preferenceError')
            : ''

  return (
    <ResultPanel messages="marketplaces.panel" tone="muted" testId="marketplace-panel">
      <div>
        <ProfileSelect
          id={`${id}-profile`}
          label={t('marketplaces.panel.profileLabel')}
          value={profileId}
          empty={profileId === null ? { label: t('marketplaces.panel.choose'), isDisabled: true } : null}
          onChange={handleProfileChange}
          testId="marketplace-profile"
          describedBy={`${id}-profile-hint`}
          disabled={!isPreferenceKnown}
        />
        <p id={`${id}-profile-hint`} className="mt-1 text-xs text-slate-600">
          {t('marketplaces.panel.profileHint')}
        </p>
        <p
          role="status"
          className={`mt-1 min-h-4 text-xs ${saveState === 'failed' ? 'text-red-800' : 'text-slate-600'}`}
          data-testid="marketplace-save-status"
        >
          {statusText}
        </p>
      </div>
      {kind === 'image' ? (
        <ChoiceGroup<ImageSlot>
          legend={t('marketplaces.panel.slotLegend')}
          name="marketplace-slot"
          value={slot}
          onChange={setSlot}
          choices={[
            { value: 'main', label: t('marketplaces.slots.main') },
            { value: 'additional', label: t('marketplaces.slots.additional') },
          ]}
        />
      ) : null}
      {!isPreferenceKnown ? (
        <Spinner className="text-brand-700" />
      ) : profileId === null ? (
        <p className="text-sm text-slate-700" data-testid="marketplace-choose-hint">
          {t('marketplaces.panel.chooseHint')}
        </p>
      ) : (
        <LoadState
          resource={check}
          loading={
            <div className="flex min-h-24 items-center justify-center text-brand-700">
              <Spinner label={t('marketplaces.panel.checking', { marketplace: profileName })} />
            </div>
          }
          errorTitle={t('marketplaces.panel.checkError')}
          retryLabel={t('marketplaces.panel.retry')}
        >
          {(view) => <CheckView view={view} profile={getProfile(view.profile)} />}
        </LoadState>
      )}
    </ResultPanel>
  )
}

function CheckView(props: { view: MarketplaceCheckView; profile: MarketplaceProfile }) {
  const { t } = useI18n()
  const { view, profile } = props
  const fittedId = useId()
  const [isFittedShown, setFittedShown] = useState(false)
  const marketplace = t(`marketplaces.profiles.${profile.id}`)
  const kind = view.image ? 'image' : view.video ? 'video' : 'copy'
  const results: CheckResult[] = view.image?.results ?? view.video?.results ?? view.copy?.results ?? []
  const { summary } = view
  const size = { width: String(profile.export.width), height: String(profile.export.height) }

  function fixLabel(fix: FixAction): string {
    return fix === 'resize' ? t('marketplaces.fixes.resize', size) : t(`marketplaces.fixes.${fix}`)
  }

  function renderFix(fix: FixAction) {
    if (kind !== 'copy' && view.exportUrl && isExportFix(fix, profile, kind)) {
      return (
        <a
          href={view.exportUrl}
          download
          className="inline-flex items-center gap-1 rounded text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          data-testid="rule-fix"
        >
          {fixLabel(fix)}
        </a>
      )
    }
    if (kind === 'copy' && view.copy && (fix === 'shorten-title' || fix === 'shorten-description')) {
      return (
        <button
          type="button"
          aria-expanded={isFittedShown}
          aria-controls={fittedId}
          onClick={() => setFittedShown((shown) => !shown)}
          className="rounded text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          data-testid="rule-fix"
        >
          {fixLabel(fix)}
        </button>
      )
    }
    return (
      <p className="text-xs text-slate-700" data-testid="rule-fix-advice">
        {t('marketplaces.panel.suggestedFix', { fix: fixLabel(fix) })}
      </p>
    )
  }

  return (
    <div className="space-y-3">
      <p className="text-sm font-semibold text-slate-900" data-testid="marketplace-summary">
        {summary.fail === 0 && summary.warn === 0
          ? t('marketplaces.panel.summaryAllPass', { pass: summary.pass })
          : t('marketplaces.panel.summary', summary)}
      </p>
      <CheckList
        label={t('marketplaces.panel.checklistLabel', { marketplace })}
        marketplace={marketplace}
        results={results}
        renderFix={renderFix}
      />
      {view.copy ? (
        <div id={fittedId} hidden={!isFittedShown} data-testid="marketplace-fitted">
          <FittedCopy marketplace={marketplace} fitted={view.copy.fitted} />
        </div>
      ) : null}
      {view.exportUrl && kind !== 'copy' ? (
        <div className="space-y-1 border-t border-slate-200 pt-3">
          <a
            href={view.exportUrl}
            download
            className={`${buttonClasses('primary')} w-full sm:w-auto`}
            data-testid="marketplace-download"
          >
            <DownloadIcon className="h-4 w-4 shrink-0" />
            {kind === 'image'
              ? t('marketplaces.panel.downloadImage', { marketplace, ...size })
              : t('marketplaces.panel.downloadVideo', { marketplace })}
          </a>
          {kind === 'image' ? (
            <>
              <p className="text-xs text-slate-600">
                {t(`marketplaces.exportChoice.${profile.export.choice}`)}
              </p>
              <p className="text-xs text-slate-600">{t('marketplaces.panel.exportNote')}</p>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}

function FittedCopy(props: { marketplace: string; fitted: { title: string; description: string } }) {
  const { t } = useI18n()
  const titleLabel = t('marketplaces.panel.fittedTitleLabel')
  const descriptionLabel = t('marketplaces.panel.fittedDescriptionLabel')
  return (
    <section className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
      <div>
        <h4 className="text-sm font-semibold text-slate-900">
          {t('marketplaces.panel.fittedTitle', { marketplace: props.marketplace })}
        </h4>
        <p className="text-xs text-slate-600">{t('marketplaces.panel.fittedHint')}</p>
      </div>
      <div className="space-y-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs font-semibold text-slate-700">{titleLabel}</p>
          <CopyButton text={props.fitted.title} what={titleLabel} testId="fitted-title-copy" />
        </div>
        <p className="text-sm font-semibold break-words text-slate-900" data-testid="fitted-title">
          {props.fitted.title}
        </p>
      </div>
      <div className="space-y-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs font-semibold text-slate-700">{descriptionLabel}</p>
          <CopyButton
            text={props.fitted.description}
            what={descriptionLabel}
            testId="fitted-description-copy"
          />
        </div>
        <p
          className="text-sm break-words whitespace-pre-line text-slate-800"
          data-testid="fitted-description"
        >
          {props.fitted.description}
        </p>
      </div>
    </section>
  )
}
