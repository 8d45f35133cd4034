import { PageHeader } from '../../components/ui/page-header.tsx'

export function ResetPasswordConfirmPage() {
  return <PageHeader title="ResetPasswordConfirmPage" />
}
