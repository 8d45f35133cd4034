import { PageHeader } from '../../components/ui/page-header.tsx'

export function AccessPage() {
  return <PageHeader title="AccessPage" />
}
