/** One call's share of a run: the run's result and the call's place in it (0 … size - 1). */
export type BatchShare<T> = { result: T; index: number; size: number }

type Waiter<T> = { resolve: (share: BatchShare<T>) => void; reject: (error: unknown) => void }

/**
 * Serves calls in runs, one lane per key: a call whose lane is idle starts a run for itself at
 * once; calls arriving while a run of their lane is in flight wait for it to end and then go
 * together, in their order of arrival, in the lane's next run. So a lane has at most one run in
 * flight, and a call never joins a run that had already started (what the run reads is never
 * older than the call). Calls of one lane must be interchangeable: the run gets the first one's
 * input and how many it serves. A failed run fails its own calls only.
 */
export function concurrentBatches<I, T>(run: (input: I, size: number) => Promise<T>) {
  const lanes = new Map<string, Waiter<T>[]>()

  async function drain(lane: string, input: I, waiting: Waiter<T>[]) {
    while (waiting.length > 0) {
      const batch = waiting.splice(0)
      try {
        const result = await run(input, batch.length)
        batch.forEach((waiter, index) => {
          waiter.resolve({ result, index, size: batch.length })
        })
      } catch (error) {
        for (const waiter of batch) waiter.reject(error)
      }
    }
    lanes.delete(lane)
  }

  return (lane: string, input: I): Promise<BatchShare<T>> =>
    new Promise((resolve, reject) => {
      const waiting = lanes.get(lane)
      if (waiting) {
        waiting.push({ resolve, reject })
        return
      }
      const started = [{ resolve, reject }]
      lanes.set(lane, started)
      void drain(lane, input, started)
    })
}
