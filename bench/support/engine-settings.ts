// Settings and messages that bench/engine.ts and its child processes share (kept apart from the
// child scripts, which start servers when imported).

/** Jobs one worker runs at once in the orchestration run: every job of the burst runs at once. */
export const benchWorkerConcurrency = 20

/** How long the fal fake takes from submit to COMPLETED. */
export const benchFalDelayMs = 2000

/** One HTTP call of the fal adapter, in epoch ms (one machine, one clock). */
export type FalCall = { method: string; path: string; start: number; end: number }

/** A generation row's timestamps, in epoch ms. */
export type JobRow = {
  id: string
  providerRequestId: string | null
  createdAt: number
  startedAt: number | null
  finishedAt: number | null
}

/** What the orchestration server saw since the last reset. */
export type EngineReport = {
  falCalls: FalCall[]
  claimQueries: number
  /** Embedded database statements by kind (empty on PostgreSQL). */
  statements: Record<string, number>
  jobs: JobRow[]
}

export type ReportRequest = { type: 'reset' | 'report' }

export function isReportRequest(message: unknown): message is ReportRequest {
  const type = (message as { type?: unknown } | null)?.type
  return type === 'reset' || type === 'report'
}
