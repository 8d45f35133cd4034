import { useParams } from 'react-router'
import { Container } from '#web/components/ui/container.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { BatchDetails } from '#web/features/catalogue/components/batch-details.tsx'
import { useLiveBatch } from '#web/features/catalogue/hooks/use-live-batch.ts'
import { LazyCataloguePublish } from '#web/features/publishing/components/catalogue-publish-lazy.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** One batch: its progress, live while it runs, its rows, its ZIP, and publishing it once finished. */
export function CatalogueBatchPage() {
  const { t } = useI18n()
  const { id = '' } = useParams()
  const batch = useLiveBatch(id)
  const fileName = batch.status === 'ready' ? batch.data.batch.fileName : undefined
  useDocumentTitle(fileName ?? t('catalogue.batch.title'))

  return (
    <div className="min-h-[60vh] bg-slate-50">
      <PageHeader title={fileName ?? t('catalogue.batch.title')} subtitle={t('catalogue.batch.subtitle')} />
      <Container className="space-y-6 py-8 sm:py-10">
        <TextLink to={href('catalogue')} className="inline-flex text-sm">
          {t('catalogue.batch.back')}
        </TextLink>
        <LoadState
          resource={batch}
          loadingLabel={t('catalogue.batch.loading')}
          errorTitle={t('catalogue.batch.error')}
          retryLabel={t('catalogue.list.retry')}
        >
          {(view) => (
            <BatchDetails
              view={view}
              onChange={batch.replace}
              publish={<LazyCataloguePublish batchId={view.batch.id} />}
            />
          )}
        </LoadState>
      </Container>
    </div>
  )
}
