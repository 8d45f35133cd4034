/** Runs at most `size` tasks at once; the rest wait their turn, first come first served. */
export type Slots = { run<T>(task: () => Promise<T>): Promise<T> }

export function createSlots(size: number): Slots {
  let running = 0
  const waiting: (() => void)[] = []
  return {
    async run(task) {
      if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve))
      else running++
      try {
        return await task()
      } finally {
        // The slot passes straight to the next in line, or is freed.
        const next = waiting.shift()
        if (next) next()
        else running--
      }
    },
  }
}
