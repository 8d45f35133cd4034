import { useSearchParams } from 'react-router'
import { Container } from '#web/components/ui/container.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { CheckoutReturn } from '#web/features/billing/components/checkout-return.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

/** /billing/success?session_id=…: where the provider's hosted checkout sends the user back. */
export function BillingSuccessPage() {
  const { t } = useI18n()
  useDocumentTitle(t('billing.return.title'))
  const [searchParams] = useSearchParams()
  const sessionId = searchParams.get('session_id')
  return (
    <>
      <PageHeader title={t('billing.return.title')} />
      <Container className="py-12 sm:py-16">
        <div className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
          <CheckoutReturn key={sessionId ?? ''} sessionId={sessionId} />
        </div>
      </Container>
    </>
  )
}
