import { ParagraphSections, PolicyPage, ProseList, ProseSection } from '#web/components/ui/prose.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

const paragraphSections = ['where', 'providers', 'training', 'cookies', 'security', 'choices'] as const

export function PrivacyPage() {
  const { t } = useI18n()
  return (
    <PolicyPage page="privacy">
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
      <ParagraphSections page="privacy" ids={paragraphSections} />
    </PolicyPage>
  )
}
