import { Container } from '#web/components/ui/container.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { ContactPrompt, ProseList, ProseNote, ProseSection } from '#web/components/ui/prose.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

const paragraphSections = ['where', 'providers', 'training', 'cookies', 'security', 'choices'] as const

export function PrivacyPage() {
  const { t } = useI18n()
  return (
    <>
      <PageHeader title={t('pages.privacy.title')} subtitle={t('pages.privacy.subtitle')} />
      <Container className="py-12 sm:py-16">
        <div className="mx-auto max-w-3xl space-y-10">
          <ProseNote>
            <p>{t('pages.privacy.notice')}</p>
          </ProseNote>
          <ProseSection id="stored" title={t('pages.privacy.stored.title')}>
            <ProseList
              items={[
                t('pages.privacy.stored.account'),
                t('pages.privacy.stored.beta'),
                t('pages.privacy.stored.content'),
                t('pages.privacy.stored.contact'),
                t('pages.privacy.stored.key'),
              ]}
            />
          </ProseSection>
          {paragraphSections.map((section) => (
            <ProseSection key={section} id={section} title={t(`pages.privacy.${section}.title`)}>
              <p>{t(`pages.privacy.${section}.body`)}</p>
            </ProseSection>
          ))}
          <ContactPrompt
            text={t('pages.privacy.questions.body')}
            linkText={t('pages.privacy.questions.link')}
          />
        </div>
      </Container>
    </>
  )
}
