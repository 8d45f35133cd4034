import { lazy, Suspense } from 'react'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

// The Library's Publications in their own chunk, loaded when the tab is opened: the status view,
// the rejection reasons and the resubmit form are not part of the Library's first load
// (docs/decisions/0004-web-bundle-budget.md).
const List = lazy(async () => ({ default: (await import('./publications-list.tsx')).PublicationsList }))

function Loading() {
  const { t } = useI18n()
  return <Spinner label={t('publishing.library.loading')} className="text-brand-700" />
}

export function LazyPublicationsList() {
  return (
    <Suspense fallback={<Loading />}>
      <List />
    </Suspense>
  )
}
