import { PageHeader } from '../../components/ui/page-header.tsx'

export function PrivacyPage() {
  return <PageHeader title="Privacy" />
}
