import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Owner-only folders: the data folder holds the database (emails, reset tokens), files and the secret. */
export const privateDirMode = 0o700
/** Owner-only files. */
export const privateFileMode = 0o600

/**
 * Creates `path` (and any missing parents) readable by its owner only, and takes group and
 * other rights away from it when it already exists with them. A folder owned by someone else
 * (e.g. a mounted volume) is left as it is: only its owner may change its mode.
 */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: privateDirMode })
  const { mode } = statSync(path)
  if ((mode & 0o077) === 0) return
  try {
    chmodSync(path, privateDirMode)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error
  }
}

/**
 * Removes files in `dir` (not below it) last changed more than `olderThanMs` ago: uploads left
 * on their way in by a process that stopped mid-request. Best effort; returns how many went.
 */
export function removeOldFiles(dir: string, olderThanMs: number, now = Date.now()): number {
  let removed = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(dir, entry.name)
    try {
      if (now - statSync(path).mtimeMs > olderThanMs) {
        rmSync(path, { force: true })
        removed += 1
      }
    } catch {
      // Gone meanwhile, or not ours to remove: left alone.
    }
  }
  return removed
}
