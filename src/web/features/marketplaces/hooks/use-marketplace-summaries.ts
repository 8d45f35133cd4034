import { useCallback, useEffect, useRef, useState } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { maxSummaryIds, type PreferencesResponse } from '#shared/contracts/marketplaces.ts'
import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { getMarketplaceSummaries, getPreferences } from '../api/marketplaces-api.ts'

/**
 * What a library card shows for its result: `loading` (a skeleton), the counts, or nothing
 * (`none`: no preferred profile, not a checkable result, or it could not be checked; the panel
 * in the result says why).
 */
export type CardSummary =
  | { status: 'loading' }
  | { status: 'ready'; summary: { pass: number; warn: number; fail: number } }
  | { status: 'none' }

export type MarketplaceSummaries = {
  /** The preferred profile, or null (none chosen, or not known yet). */
  profile: MarketplaceId | null
  summaryOf: (generation: GenerationView) => CardSummary
  /** Reads the preference again (it may have changed in a result's panel); a new profile asks again. */
  refresh: () => void
}

/** A finished image, video or SEO result: the kinds the checker judges. */
export function isCheckable(generation: GenerationView): boolean {
  return generation.status === 'succeeded' && generation.result !== null
}

/**
 * The checklist summaries of the library cards on screen, for the user's preferred profile
 * (GET /api/preferences). Each result is asked for once, a page (maxSummaryIds) per request;
 * results the server has not measured yet come back `pending` and are asked for again at once,
 * since each answer measures a bounded few (the server's summaryWork), so they fill in as they
 * are measured. Ids added later ("Load more", a job that finished) are asked for as they come.
 */
export function useMarketplaceSummaries(generations: readonly GenerationView[]): MarketplaceSummaries {
  const preferences = useResource<PreferencesResponse>(getPreferences)
  const profile = preferences.status === 'ready' ? preferences.data.marketplaceProfile : null
  const [byId, setById] = useState<Record<string, CardSummary>>({})
  // Ids asked for (or answered) under `profile`; emptied when the profile changes.
  const asked = useRef<{ profile: MarketplaceId | null; ids: Set<string> }>({ profile: null, ids: new Set() })
  const ids = generations.filter(isCheckable).map((generation) => generation.id)
  const idsKey = ids.join(',')

  useEffect(() => {
    if (!profile) return
    if (asked.current.profile !== profile) {
      asked.current = { profile, ids: new Set() }
      setById({})
    }
    const known = asked.current.ids
    const fresh = idsKey === '' ? [] : idsKey.split(',').filter((id) => !known.has(id))
    if (fresh.length === 0) return
    for (const id of fresh) known.add(id)
    const settled = new Set<string>()
    const controller = new AbortController()
    const settle = (entries: [string, CardSummary][]) => {
      for (const [id] of entries) settled.add(id)
      setById((current) => ({ ...current, ...Object.fromEntries(entries) }))
    }
    void (async () => {
      let queue = fresh
      // Every answer measures at least one pending result, so this many rounds always suffice.
      for (let round = 0; queue.length > 0 && round <= fresh.length; round++) {
        const chunk = queue.slice(0, maxSummaryIds)
        const rest = queue.slice(maxSummaryIds)
        try {
          const answer = await getMarketplaceSummaries(profile, chunk, controller.signal)
          const found = new Map(answer.summaries.map((summary) => [summary.generationId, summary]))
          const pending: string[] = []
          const done: [string, CardSummary][] = []
          for (const id of chunk) {
            const summary = found.get(id)
            if (summary?.status === 'pending') pending.push(id)
            else if (summary?.status === 'ready')
              done.push([id, { status: 'ready', summary: summary.summary }])
            else done.push([id, { status: 'none' }])
          }
          settle(done)
          queue = [...rest, ...pending]
        } catch {
          if (controller.signal.aborted) return
          // The card shows nothing rather than a guess; the panel in the result can still check.
          settle(chunk.map((id) => [id, { status: 'none' }]))
          queue = rest
        }
      }
      settle(queue.map((id) => [id, { status: 'none' }]))
    })()
    return () => {
      controller.abort()
      // Unanswered ids are asked for again by the next run (new ids, or the same after a remount).
      for (const id of fresh) if (!settled.has(id)) known.delete(id)
    }
  }, [profile, idsKey])

  const summaryOf = useCallback(
    (generation: GenerationView): CardSummary => {
      if (!profile || !isCheckable(generation)) return { status: 'none' }
      return byId[generation.id] ?? { status: 'loading' }
    },
    [profile, byId],
  )

  const { reload } = preferences
  return { profile, summaryOf, refresh: reload }
}
