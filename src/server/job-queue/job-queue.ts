import type { Db } from '#server/db/client.ts'
import type { AssetRow, GenerationRow } from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { JobOutcomes } from './outcomes.ts'

// The job queue (decision 11): a generations row is its job, and every change of a job's state
// is written in this folder, each in one statement with the quota it settles (decision 14 says why one
// statement). What other features add to a job's life (the quota, a finished job's webhook
// events, a catalogue row finishing) is registered at composition (outcomes.ts); this module
// imports no feature; a catalogue batch's jobs, many at a time, are in batch-jobs.ts. The states: accepted (queued, quota held), claimed (running, leased), its lease renewed, its
// progress saved, finished (succeeded: quota kept; failed or canceled: quota given back), handed
// back or retried (queued again), canceled by its owner. A job whose worker stopped renewing its
// lease is due again and taken by the next claim; there is no separate recovery. Callers decide
// what should happen (the generations service who may queue what, the worker what a failure
// means); the functions of this folder make it happen exactly once and announce it on the notifier.
//
// By verb: admitting and accepting a job (accept-job.ts), claiming due jobs and what a worker
// writes while it holds one (claim-jobs.ts), and settling a job or canceling it (settle-job.ts).
// Here: what they all share.

/** What every state change needs: the database, and the notifier that announces the change. */
export type JobQueueDeps = { db: Db; notifier: Notifier }

/** What accepting, settling and canceling need besides: the outcomes features registered. */
export type JobOutcomeDeps = JobQueueDeps & { outcomes: JobOutcomes }

/** A job a worker has claimed: its writes apply only while that worker still holds it. */
export type HeldJob = { row: GenerationRow; workerId: string }

/** A claimed job and its input photo's row (null when the photo is gone). */
export type ClaimedJob = { row: GenerationRow; input: AssetRow | null }
