import { useEffect, useRef, useState } from 'react'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import type { BatchView, CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import type { ResourceState } from '#web/lib/use-resource.ts'
import { deleteDraft, getImportView } from '../api/catalogue-api.ts'
import { FileStep } from './file-step.tsx'
import { MappingStep } from './mapping-step.tsx'
import { OutputsStep, type ScenePromptSlot } from './outputs-step.tsx'
import { PhotosStep } from './photos-step.tsx'

const steps = ['file', 'mapping', 'photos', 'outputs'] as const
type Step = (typeof steps)[number]

/**
 * "Import a product list": file → columns → photos and check → outputs and start. One step shows at a
 * time; the list of steps says where the user is (aria-current), and each step's heading takes
 * focus when it opens, so keyboard and screen-reader users start at its top.
 */
export function ImportWizard(props: {
  usage: ResourceState<UsageResponse>
  hasOwnKey: boolean
  /** The seller's default marketplace, which the outputs step starts from (null: none chosen). */
  marketplace?: MarketplaceId | null
  renderScenePrompt: ScenePromptSlot
  onStarted: (view: BatchView) => void
  /** A draft was made or deleted: the list of batches may show it. */
  onDraftsChanged: () => void
  /** A draft to go on with (from its page): opens at its columns, or its outputs once checked. */
  resumeDraftId?: string | null
}) {
  const { t } = useI18n()
  const [step, setStep] = useState<Step>('file')
  const [view, setView] = useState<CatalogueImportView | null>(null)
  const [photos, setPhotos] = useState<File | null>(null)
  const [isLeaving, setLeaving] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const hasMovedRef = useRef(false)

  const [resumeError, setResumeError] = useState(false)
  const resumeDraftId = props.resumeDraftId ?? null
  useEffect(() => {
    if (!resumeDraftId) return
    const controller = new AbortController()
    getImportView(resumeDraftId, controller.signal).then(
      (draft) => {
        if (draft.batch.status !== 'draft') return
        setView(draft)
        setStep(draft.photosChecked ? 'outputs' : 'mapping')
      },
      () => {
        if (!controller.signal.aborted) setResumeError(true)
      },
    )
    return () => controller.abort()
  }, [resumeDraftId])

  // biome-ignore lint/correctness/useExhaustiveDependencies: the step is the trigger
  useEffect(() => {
    // Not on the first render: the page's own heading comes first then.
    if (hasMovedRef.current) headingRef.current?.focus()
    hasMovedRef.current = true
  }, [step])

  function handleImported(imported: CatalogueImportView, chosenPhotos: File | null) {
    setView(imported)
    setPhotos(chosenPhotos)
    setStep('mapping')
    props.onDraftsChanged()
  }

  /** The draft as the server now reads it; the list of imports shows its product count too. */
  function handleViewChange(next: CatalogueImportView) {
    if (next.batch.productCount !== view?.batch.productCount) props.onDraftsChanged()
    setView(next)
  }

  async function handleChooseAnother() {
    if (!view) return
    setLeaving(true)
    // The draft is of no use once another file is chosen; if it cannot be deleted now it stays
    // in the list as "not started" and can be deleted from its page.
    await deleteDraft(view.batch.id).catch(() => undefined)
    setLeaving(false)
    setView(null)
    setPhotos(null)
    setStep('file')
    props.onDraftsChanged()
  }

  const index = steps.indexOf(step)
  return (
    <section
      aria-labelledby="catalogue-import-title"
      className="rounded-3xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      data-testid="import-wizard"
    >
      <h2 id="catalogue-import-title" className="text-xl font-semibold text-slate-900">
        {t('catalogue.wizard.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('catalogue.wizard.intro')}</p>
      <ol
        className="mt-5 grid grid-cols-2 gap-2 sm:grid-cols-4"
        aria-label={t('catalogue.wizard.stepsLabel')}
      >
        {steps.map((item, itemIndex) => {
          const isCurrent = item === step
          const isDone = itemIndex < index
          return (
            <li
              key={item}
              aria-current={isCurrent ? 'step' : undefined}
              className={`rounded-lg border-t-4 px-1 pt-2 text-xs font-semibold sm:text-sm ${
                isCurrent
                  ? 'border-brand-700 text-brand-800'
                  : isDone
                    ? 'border-brand-300 text-slate-700'
                    : 'border-slate-200 text-slate-500'
              }`}
            >
              <span className="block text-[0.7rem] font-medium tracking-wide uppercase">
                {t('catalogue.wizard.stepOf', { current: itemIndex + 1, total: steps.length })}
              </span>
              {t(`catalogue.wizard.steps.${item}`)}
              {isDone ? <span className="sr-only"> ({t('catalogue.wizard.stepDone')})</span> : null}
            </li>
          )
        })}
      </ol>
      <div className="mt-6">
        <h3 ref={headingRef} tabIndex={-1} className="mb-4 text-lg font-semibold text-slate-900 outline-none">
          {t(`catalogue.wizard.headings.${step}`)}
          {view && step !== 'file' ? (
            <span className="block text-sm font-normal text-slate-600">{view.batch.fileName}</span>
          ) : null}
        </h3>
        {resumeError && !view ? (
          <p role="alert" className="mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {t('catalogue.wizard.resumeFailed')}
          </p>
        ) : null}
        {step === 'file' || !view ? (
          <FileStep onImported={handleImported} />
        ) : step === 'mapping' ? (
          <MappingStep
            view={view}
            onChange={handleViewChange}
            onContinue={() => setStep('photos')}
            onChooseAnother={() => void handleChooseAnother()}
            isLeaving={isLeaving}
          />
        ) : step === 'photos' || !view.photosChecked ? (
          <PhotosStep
            view={view}
            photos={photos}
            onPhotosChange={setPhotos}
            onChecked={handleViewChange}
            onBack={() => setStep('mapping')}
            onContinue={() => setStep('outputs')}
          />
        ) : (
          <OutputsStep
            batch={view.batch}
            usage={props.usage}
            hasOwnKey={props.hasOwnKey}
            marketplace={props.marketplace ?? null}
            renderScenePrompt={props.renderScenePrompt}
            onBack={() => setStep('photos')}
            onStarted={props.onStarted}
          />
        )}
      </div>
    </section>
  )
}
