import { ButtonLink } from '../../components/ui/button.tsx'
import { Container } from '../../components/ui/container.tsx'
import { PageHeader } from '../../components/ui/page-header.tsx'
import { ProseList } from '../../components/ui/prose.tsx'
import { useI18n } from '../../lib/i18n.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

/** Placeholder until the tool is built: says honestly what it will do; nothing here pretends to work. */
export function FashionPage() {
  const { t } = useI18n()
  useDocumentTitle(t('app.placeholder.fashion.title'))
  return (
    <>
      <PageHeader
        title={t('app.placeholder.fashion.title')}
        subtitle={t('app.placeholder.fashion.description')}
      />
      <Container className="py-10 sm:py-12">
        <div className="max-w-2xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold tracking-wide text-amber-950 uppercase">
            {t('app.placeholder.badge')}
          </p>
          <p className="mt-4 font-medium text-slate-900">{t('app.placeholder.intro')}</p>
          <div className="mt-3 text-slate-700">
            <ProseList
              items={[
                t('app.placeholder.fashion.points.upload'),
                t('app.placeholder.fashion.points.image'),
                t('app.placeholder.fashion.points.video'),
              ]}
            />
          </div>
          <p className="mt-6 text-sm text-slate-600">{t('app.placeholder.meanwhile')}</p>
          <ButtonLink to="/app" variant="secondary" className="mt-6">
            {t('app.placeholder.back')}
          </ButtonLink>
        </div>
      </Container>
    </>
  )
}
