import { PageHeader } from '../../components/ui/page-header.tsx'

export function SignUpPage() {
  return <PageHeader title="SignUpPage" />
}
