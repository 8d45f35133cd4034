import { PageHeader } from '../../components/ui/page-header.tsx'

export function FashionPage() {
  return <PageHeader title="FashionPage" />
}
