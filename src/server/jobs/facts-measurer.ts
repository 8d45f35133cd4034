import type { Db } from '#server/db/client.ts'
import {
  type ClaimOptions,
  claimUnmeasuredResult,
  postponeClaim,
  releaseClaim,
} from '#server/features/marketplaces/facts-claims.ts'
import { createInspections } from '#server/features/marketplaces/marketplaces.service.ts'
import { type FactDeps, measureResultFacts } from '#server/features/marketplaces/measure-facts.service.ts'
import type { Logger } from '#server/logger.ts'
import type { ObjectStorage } from '#server/storage/types.ts'

// The worker's facts measurer (docs/decisions/0044-facts-measured-after-the-job.md): the
// marketplace checker's facts of each new image result (size, background, fill, text, fidelity to
// the seller's photo) are measured after its generation job has settled, so that opening its check
// or showing its library badge is rules only, and no job holds its slot for them. Its work is
// what the database says is left (image results without facts, features/marketplaces/
// facts-claims.ts), so nothing is lost to a restart; it is woken when an image job settles and
// when the worker starts, and looks now and then for other processes' results. It yields to
// generation jobs: a measurement starts only while the worker has a free slot and no job known to
// be waiting for one.

export type FactsMeasurerSettings = Pick<FactDeps, 'segmenter' | 'textReader'> &
  Partial<Pick<FactDeps, 'inspections'>> &
  Partial<Omit<ClaimOptions, 'claimedBy'>> & {
    /** Measurements at once (WORKER_FACTS_CONCURRENCY); 0 turns the measurer off. */
    concurrency: number
    /** How often to look when nothing wakes the measurer (other processes' results). */
    pollMs?: number
    /** How long a failed measurement waits before it is tried again. */
    retryMs?: number
    /** How long stopping waits for a measurement under way. */
    stopWaitMs?: number
    /** Told how each look ended; for tests that wait on the measurer. */
    onPass?: (outcome: FactsPass) => void
  }

/**
 * How one look of the measurer ended: `busy` (the worker's slots are needed: nothing measured),
 * `idle` (nothing left to measure), `measured` or `failed` (one result).
 */
export type FactsPass = 'busy' | 'idle' | 'measured' | 'failed'

export type FactsMeasurer = {
  /** New results may be waiting (an image job settled, or the worker started). */
  wake: () => void
  /** A generation slot freed, or the worker claimed: a measurer waiting for one looks again. */
  slotFreed: () => void
  /**
   * Stops looking; resolves once a measurement under way has been stored, or after `stopWaitMs`
   * (a measurement cannot be interrupted, and a worker's shutdown has a grace period): its claim
   * is then given up, so another process can take the result at once.
   */
  stop: () => Promise<void>
}

/** Defaults: a measurement takes seconds (minutes on a very loaded machine); results of the last day are measured. */
export const factsDefaults = {
  leaseMs: 5 * 60_000,
  windowMs: 24 * 60 * 60_000,
  maxAttempts: 3,
  pollMs: 60_000,
  retryMs: 10 * 60_000,
  stopWaitMs: 3000,
} as const

type Lane = { hasNews: boolean; wake: (() => void) | null }

/**
 * Starts `settings.concurrency` measuring lanes (none when 0). `mayMeasure` says whether the worker
 * can spare the machine now (a free slot, no job waiting for one). Lanes first look when woken:
 * the worker wakes them after its first claim, so jobs waiting since a restart go first.
 */
export function startFactsMeasurer(
  base: { db: Db; storage: ObjectStorage; log: Logger; claimedBy: string },
  settings: FactsMeasurerSettings,
  mayMeasure: () => boolean,
): FactsMeasurer {
  const log = base.log.child({ component: 'facts-measurer' })
  const deps: FactDeps = {
    db: base.db,
    storage: base.storage,
    segmenter: settings.segmenter,
    textReader: settings.textReader ?? null,
    inspections: settings.inspections ?? createInspections(),
  }
  const claim: ClaimOptions = {
    claimedBy: base.claimedBy,
    leaseMs: settings.leaseMs ?? factsDefaults.leaseMs,
    windowMs: settings.windowMs ?? factsDefaults.windowMs,
    maxAttempts: settings.maxAttempts ?? factsDefaults.maxAttempts,
  }
  const pollMs = settings.pollMs ?? factsDefaults.pollMs
  const retryMs = settings.retryMs ?? factsDefaults.retryMs
  const report = (outcome: FactsPass) => settings.onPass?.(outcome)
  let isStopping = false
  let isWaitingForSlot = false
  /** Results claimed by this measurer and not yet stored or given back. */
  const held = new Set<string>()
  const lanes: Lane[] = Array.from({ length: Math.max(0, settings.concurrency) }, () => ({
    hasNews: false,
    wake: null,
  }))

  const wakeAll = () => {
    for (const lane of lanes) {
      lane.hasNews = true
      lane.wake?.()
    }
  }

  /** Waits for a wake-up or the poll. */
  const rest = (lane: Lane) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs)
      function done() {
        clearTimeout(timer)
        lane.wake = null
        resolve()
      }
      lane.wake = done
    })

  /** One look: claims a result and measures it. True when it measured one (look again at once). */
  async function look(): Promise<boolean> {
    if (!mayMeasure()) {
      isWaitingForSlot = true
      report('busy')
      return false
    }
    const claimed = await claimUnmeasuredResult(deps.db, claim)
    if (!claimed) {
      report('idle')
      return false
    }
    // A job came while claiming: it goes first; the result is left for the next look.
    if (!mayMeasure()) {
      await releaseClaim(deps.db, claimed.asset.id)
      isWaitingForSlot = true
      report('busy')
      return false
    }
    const resultLog = log.child({ generationId: claimed.generationId })
    const started = performance.now()
    held.add(claimed.asset.id)
    try {
      await measureResultFacts(deps, claimed.asset, claimed.originalAssetId)
      await releaseClaim(deps.db, claimed.asset.id)
      resultLog.debug({ ms: Math.round(performance.now() - started) }, 'measured the result for the checker')
      report('measured')
    } catch (error) {
      if (isStopping) return false
      // Left to be tried again later (a few times), and to its first check meanwhile.
      resultLog.warn({ err: error }, 'measuring the result for the checker failed; will try again later')
      await postponeClaim(deps.db, claimed.asset.id, retryMs).catch(() => {})
      report('failed')
    } finally {
      held.delete(claimed.asset.id)
    }
    return true
  }

  async function run(lane: Lane): Promise<void> {
    while (!isStopping) {
      if (lane.hasNews) {
        lane.hasNews = false
        let again = false
        try {
          again = await look()
        } catch (error) {
          if (!isStopping) log.warn({ err: error }, 'looking for results to measure failed; will look again')
        }
        if (again) {
          lane.hasNews = true
          continue
        }
      }
      if (isStopping) break
      if (!lane.hasNews) {
        await rest(lane)
        // The poll looks too: results of other processes, and claims whose time has come.
        lane.hasNews = true
      }
    }
  }

  const running = lanes.map(run)
  if (lanes.length > 0) log.debug({ concurrency: lanes.length }, 'facts measurer started')
  return {
    wake: wakeAll,
    slotFreed() {
      if (!isWaitingForSlot) return
      isWaitingForSlot = false
      wakeAll()
    },
    async stop() {
      isStopping = true
      for (const lane of lanes) lane.wake?.()
      let timer: NodeJS.Timeout | undefined
      const isDone = await Promise.race([
        Promise.all(running).then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), settings.stopWaitMs ?? factsDefaults.stopWaitMs)
        }),
      ])
      clearTimeout(timer)
      if (isDone) return
      // Still measuring: the result is given back (a measurement that still ends stores its
      // facts, and the first stored wins).
      await Promise.all([...held].map((assetId) => releaseClaim(deps.db, assetId).catch(() => {})))
      log.info({ results: held.size }, 'stopped while measuring; the results are left for the next look')
    },
  }
}
