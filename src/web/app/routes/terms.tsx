import { PageHeader } from '../../components/ui/page-header.tsx'

export function TermsPage() {
  return <PageHeader title="Terms" />
}
