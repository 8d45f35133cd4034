// What bench/catalogue-import.ts and its server child share (kept apart from the child script,
// which starts a server when imported).

/** The worker's claim timed in the server: due rows beforehand, jobs one claim took, each run's ms. */
export type ClaimTiming = { dueRows: number; claimed: number; timings: number[] }
