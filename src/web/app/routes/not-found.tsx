import { ButtonLink } from '#web/components/ui/button.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** Any path that is no page of Vitrin's (the server answered it with 404). */
export function NotFoundPage() {
  const { t } = useI18n()
  const session = useSession()
  useDocumentTitle(t('pages.notFound.title'))
  return (
    <Container className="py-20 sm:py-28">
      <div className="mx-auto max-w-xl text-center">
        <p className="text-sm font-semibold tracking-wide text-brand-700">404</p>
        <h1 className="mt-3 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl">
          {t('pages.notFound.title')}
        </h1>
        <p className="mt-4 leading-7 text-pretty text-slate-600">{t('pages.notFound.body')}</p>
        <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
          <ButtonLink to="/" variant="primary">
            {t('pages.notFound.home')}
          </ButtonLink>
          {session.status === 'signed-in' ? (
            <ButtonLink to="/app" variant="secondary">
              {t('pages.notFound.dashboard')}
            </ButtonLink>
          ) : null}
        </div>
      </div>
    </Container>
  )
}
