import { PageHeader } from '../../components/ui/page-header.tsx'

export function LibraryPage() {
  return <PageHeader title="LibraryPage" />
}
