import { existsSync } from 'node:fs'
import { run } from './run.ts'

/**
 * Installs Debian packages the tests need (Chromium, ffmpeg) when missing and we may:
 * as root with apt-get. Otherwise says what to install and returns false.
 */
export async function ensureSystemPackages(packages: { name: string; binary: string }[]): Promise<boolean> {
  const missing = packages.filter((p) => !existsSync(p.binary))
  if (missing.length === 0) return true
  const names = missing.map((p) => p.name)
  const isRoot = process.getuid?.() === 0
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `Missing system packages: ${names.join(', ')}. Install them (e.g. sudo apt-get install ${names.join(' ')}).`,
    )
    return false
  }
  console.log(`Installing ${names.join(', ')} with apt-get (once per machine)…`)
  const env = { DEBIAN_FRONTEND: 'noninteractive' }
  if ((await run('apt-get', ['update', '-qq'], { env })) !== 0) return false
  if ((await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], { env })) !== 0)
    return false
  return missing.every((p) => existsSync(p.binary))
}
