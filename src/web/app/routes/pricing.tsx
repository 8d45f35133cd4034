import { Link } from 'react-router'
import { plans } from '../../../shared/plans.ts'
import { Container } from '../../components/ui/container.tsx'
import { PageHeader } from '../../components/ui/page-header.tsx'
import { PlanCard } from '../../features/plans/components/plan-card.tsx'
import { useI18n } from '../../lib/i18n.tsx'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

export function PricingPage() {
  const { t } = useI18n()
  useDocumentTitle(t('common.nav.pricing'))
  return (
    <>
      <PageHeader title={t('pricing.title')} subtitle={t('pricing.subtitle')} />
      <Container className="py-12 sm:py-16">
        <div className="grid gap-8 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} ctaTo={`/auth/signup?plan=${plan.id}`} />
          ))}
        </div>
        <p className="mt-10 text-center text-sm text-slate-600">{t('pricing.quotaNote')}</p>
        <p className="mt-2 text-center text-sm text-slate-600">
          {t('pricing.enterprise')}
          <Link to="/contact" className="font-semibold text-brand-700 hover:underline">
            {t('pricing.enterpriseLink')}
          </Link>
        </p>
      </Container>
    </>
  )
}
