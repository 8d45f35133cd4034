import { PageHeader } from '../../components/ui/page-header.tsx'

export function CreatePage() {
  return <PageHeader title="CreatePage" />
}
