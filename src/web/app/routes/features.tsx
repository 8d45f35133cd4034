import { PageHeader } from '../../components/ui/page-header.tsx'

export function FeaturesPage() {
  return <PageHeader title="Features" />
}
