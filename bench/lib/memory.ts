import { readFileSync, writeFileSync } from 'node:fs'

/** A field of a process's /proc status in MB (VmHWM: peak resident memory, VmRSS: now); null when unreadable. */
export function readProcStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : null
  } catch {
    return null
  }
}

/**
 * Watches a process's resident memory. The kernel's high-water mark (VmHWM) is reset first, so
 * start-up and earlier work do not count; samples of VmRSS back it up where the reset is refused.
 */
export function watchMemory(pid: number) {
  let isReset = true
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    isReset = false
  }
  let sampledPeak = readProcStatus(pid, 'VmRSS') ?? 0
  const timer = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, readProcStatus(pid, 'VmRSS') ?? 0)
  }, 50)
  return {
    /** Whether the kernel's peak was reset (else the figure is the sampled peak, or an upper bound). */
    isReset,
    /** Peak RSS in MB since the watch began. */
    stop(): number {
      clearInterval(timer)
      const hwm = isReset ? readProcStatus(pid, 'VmHWM') : null
      return Math.max(hwm ?? 0, sampledPeak)
    },
  }
}
