import { lazy, Suspense } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'

// The Publish panel in its own chunk, loaded when a finished image result is first shown: its
// form and the rejection reasons it names are not part of Create's or the Library's first load
// (docs/decisions/0004-web-bundle-budget.md).
const Panel = lazy(async () => ({ default: (await import('./publish-panel.tsx')).PublishPanel }))

export function LazyPublishPanel(props: { generation: GenerationView }) {
  const { generation } = props
  if (generation.status !== 'succeeded' || generation.result?.type !== 'image') return null
  return (
    <Suspense fallback={null}>
      <Panel generation={generation} />
    </Suspense>
  )
}
