import { lazy, Suspense } from 'react'

// A finished batch's Publish section in its own chunk, loaded when it is shown: the draft, the
// questions and the status view are not part of the batch page's first load
// (docs/decisions/0004-web-bundle-budget.md).
const Section = lazy(async () => ({ default: (await import('./catalogue-publish.tsx')).CataloguePublish }))

export function LazyCataloguePublish(props: { batchId: string }) {
  return (
    <Suspense fallback={null}>
      <Section batchId={props.batchId} />
    </Suspense>
  )
}
