import { PageHeader } from '../../components/ui/page-header.tsx'

export function FaqPage() {
  return <PageHeader title="Faq" />
}
