import { PageHeader } from '../../components/ui/page-header.tsx'

export function DashboardPage() {
  return <PageHeader title="DashboardPage" />
}
