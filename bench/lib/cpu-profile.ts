import { writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'

/**
 * Profiles this process's CPU between start() and stop() when BENCH_CPU_PROFILE=<file> is set,
 * and writes the profile there (open it in Chrome DevTools); does nothing otherwise.
 */
export function cpuProfiler(path = process.env.BENCH_CPU_PROFILE) {
  const session = path ? new Session() : null
  session?.connect()
  return {
    async start(): Promise<void> {
      await session?.post('Profiler.enable')
      await session?.post('Profiler.start')
    },
    async stop(): Promise<void> {
      if (!session || !path) return
      const { profile } = await session.post('Profiler.stop')
      await writeFile(path, JSON.stringify(profile))
    },
  }
}
