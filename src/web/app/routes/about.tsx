import { Container } from '#web/components/ui/container.tsx'
import { PageIntro } from '#web/components/ui/page-header.tsx'
import { ContactPrompt, ParagraphSections, ProseSection } from '#web/components/ui/prose.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

const storySections = ['name', 'who', 'team'] as const
const principles = ['honest', 'failures', 'data', 'simple'] as const

export function AboutPage() {
  const { t } = useI18n()
  return (
    <>
      <PageIntro keys="pages.about">
        <div className="mx-auto max-w-3xl space-y-10">
          <ParagraphSections page="about" ids={storySections} />
        </div>
      </PageIntro>

      <section aria-labelledby="principles-title" className="bg-slate-50 py-12 sm:py-16">
        <Container>
          <h2
            id="principles-title"
            className="text-center text-2xl font-bold tracking-tight text-balance text-slate-900 sm:text-3xl"
          >
            {t('pages.about.principles.title')}
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2">
            {principles.map((principle) => (
              <li key={principle} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <h3 className="text-lg font-semibold text-slate-900">
                  {t(`pages.about.principles.${principle}.title`)}
                </h3>
                <p className="mt-2 leading-7 text-slate-600">
                  {t(`pages.about.principles.${principle}.body`)}
                </p>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <Container className="py-12 sm:py-16">
        <div className="mx-auto max-w-3xl">
          <ProseSection id="contact" title={t('pages.about.contact.title')}>
            <ContactPrompt text={t('pages.about.contact.body')} linkText={t('pages.about.contact.link')} />
          </ProseSection>
        </div>
      </Container>
    </>
  )
}
