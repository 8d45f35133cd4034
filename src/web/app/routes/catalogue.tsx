import { useNavigate, useSearchParams } from 'react-router'
import { Container } from '#web/components/ui/container.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { listBatches } from '#web/features/catalogue/api/catalogue-api.ts'
import { BatchList } from '#web/features/catalogue/components/batch-list.tsx'
import { ImportWizard } from '#web/features/catalogue/components/import-wizard.tsx'
import { usePreferredMarketplace } from '#web/features/marketplaces/hooks/use-preferred-ratio.ts'
import { getSettings } from '#web/features/settings/api/settings-api.ts'
import { PromptField } from '#web/features/studio/components/prompt-field.tsx'
import { getUsage } from '#web/features/usage/api/get-usage.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { useSceneSuggestions } from '../scene-suggestions.ts'

/** The catalogue: import a product list (the wizard) and the batches made so far. */
export function CataloguePage() {
  const { t } = useI18n()
  const sceneSuggestions = useSceneSuggestions('product')
  useDocumentTitle(t('catalogue.page.title'))
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const batches = useResource(listBatches)
  const usage = useResource(getUsage)
  const settings = useResource(getSettings)
  // The marketplace preset and the ratios start from the seller's default marketplace.
  const marketplace = usePreferredMarketplace()
  const hasOwnKey = settings.status === 'ready' && settings.data.byoApiEnabled && settings.data.falKey.isSet

  return (
    <div className="min-h-[60vh] bg-slate-50">
      <PageHeader title={t('catalogue.page.title')} subtitle={t('catalogue.page.subtitle')} />
      <Container className="grid items-start gap-8 py-8 sm:py-10 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <ImportWizard
          usage={usage}
          hasOwnKey={hasOwnKey}
          marketplace={marketplace}
          onStarted={(view) => navigate(href('catalogueBatch', { id: view.batch.id }))}
          onDraftsChanged={batches.reload}
          resumeDraftId={searchParams.get('draft')}
          renderScenePrompt={({ value, onChange, disabled }) => (
            <PromptField
              label={t('catalogue.outputs.sceneLabel')}
              placeholder={t('studio.prompt.placeholder')}
              tip={t('studio.prompt.tip')}
              value={value}
              onChange={onChange}
              disabled={disabled}
              suggestions={sceneSuggestions}
            />
          )}
        />
        <section aria-labelledby="catalogue-list-title" className="space-y-4">
          <h2 id="catalogue-list-title" className="text-xl font-semibold text-slate-900">
            {t('catalogue.list.title')}
          </h2>
          <LoadState
            resource={batches}
            loadingLabel={t('catalogue.list.loading')}
            errorTitle={t('catalogue.list.error')}
            retryLabel={t('catalogue.list.retry')}
          >
            {(data) => <BatchList batches={data.batches} />}
          </LoadState>
        </section>
      </Container>
    </div>
  )
}
