import { type GenerationView, isTerminalStatus } from '#shared/contracts/generations.ts'
import { useGenerationWatch } from './use-generation.ts'

/**
 * A listed generation, kept up to date while it is queued or running (the studio's watch:
 * events, else polling). `onSettled` hands the final state back so the list can keep it.
 */
export function useLiveGeneration(
  generation: GenerationView,
  options: { isWatched: boolean; onSettled?: (generation: GenerationView) => void },
): GenerationView {
  const shouldWatch = options.isWatched && !isTerminalStatus(generation.status)
  const watch = useGenerationWatch(shouldWatch ? generation.id : null, {
    initial: generation,
    onSettled: options.onSettled,
  })
  return shouldWatch && watch.status === 'ready' && watch.generation.id === generation.id
    ? watch.generation
    : generation
}

/**
 * Which unfinished items to follow live. Each watch holds a connection open, and a browser
 * allows only six per server, so at most `limit` are followed at once; the next ones start as
 * those finish.
 */
export function watchedIds(items: readonly GenerationView[], limit = 3): Set<string> {
  return new Set(
    items
      .filter((item) => !isTerminalStatus(item.status))
      .slice(0, limit)
      .map((item) => item.id),
  )
}
