import { PageHeader } from '../../components/ui/page-header.tsx'

export function BillingPage() {
  return <PageHeader title="BillingPage" />
}
