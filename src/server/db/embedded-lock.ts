import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir, privateFileMode } from '#server/private-dir.ts'

// The embedded database may be opened by one process at a time. The server marks its data
// folder while it runs, so tools (such as the access-code CLI) can refuse instead of corrupting it.

function lockPath(dataDir: string): string {
  return join(dataDir, 'server.pid')
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The pid of a live process holding the data folder, or null. */
export function embeddedLockHolder(dataDir: string): number | null {
  const path = lockPath(dataDir)
  if (!existsSync(path)) return null
  const pid = Number(readFileSync(path, 'utf8').trim())
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null
}

/** Marks the data folder as held by this process; returns the release function. */
export function holdEmbeddedLock(dataDir: string): () => void {
  const holder = embeddedLockHolder(dataDir)
  if (holder) throw new Error(`the data folder ${dataDir} is in use by process ${holder}; stop it first`)
  ensurePrivateDir(dataDir)
  writeFileSync(lockPath(dataDir), String(process.pid), { mode: privateFileMode })
  return () => rmSync(lockPath(dataDir), { force: true })
}
