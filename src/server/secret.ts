import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir, privateFileMode } from './private-dir.ts'

/**
 * The app secret for the embedded default: read from `<dataDir>/secret`, or created there on
 * first start (owner-readable only) so sessions survive restarts.
 */
export function loadOrCreateSecret(dataDir: string): { secret: string; isNew: boolean } {
  const path = join(dataDir, 'secret')
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim()
    if (secret.length >= 32) return { secret, isNew: false }
  }
  ensurePrivateDir(dataDir)
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(path, `${secret}\n`, { mode: privateFileMode })
  chmodSync(path, privateFileMode)
  return { secret, isNew: true }
}
