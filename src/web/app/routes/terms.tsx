import { getPlan } from '#shared/plans.ts'
import { ParagraphSections, PolicyPage, ProseSection } from '#web/components/ui/prose.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

const laterSections = ['ai', 'plans', 'byok', 'service'] as const

export function TermsPage() {
  const { t } = useI18n()
  return (
    <PolicyPage page="terms">
      <ProseSection id="account" title={t('pages.terms.account.title')}>
        <p>{t('pages.terms.account.body', { plan: getPlan('growth').name })}</p>
      </ProseSection>
      <ProseSection id="content" title={t('pages.terms.content.title')}>
        <p>{t('pages.terms.content.rights')}</p>
        <p>{t('pages.terms.content.rules')}</p>
      </ProseSection>
      <ParagraphSections page="terms" ids={laterSections} />
    </PolicyPage>
  )
}
