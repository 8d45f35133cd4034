import { PageHeader } from '../../components/ui/page-header.tsx'

export function AboutPage() {
  return <PageHeader title="About" />
}
