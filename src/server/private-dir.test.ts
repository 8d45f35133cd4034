import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#server/db/client.ts'
import { holdEmbeddedLock } from '#server/db/embedded-lock.ts'
import { createLocalDiskStorage } from '#server/storage/local-disk.ts'
import { ensurePrivateDir, removeOldFiles } from './private-dir.ts'
import { loadOrCreateSecret } from './secret.ts'

const modeOf = (path: string) => statSync(path).mode & 0o777

// A parent that anyone may enter, as /srv or a home folder often is; what we create under it
// must not be.
const parent = mkdtempSync(join(tmpdir(), 'vitrin-modes-'))
chmodSync(parent, 0o755)

describe('the data folder is private to its owner', () => {
  afterAll(() => rmSync(parent, { recursive: true, force: true }))

  it('creates folders 0700 and tightens an existing one', () => {
    const nested = join(parent, 'a', 'b')
    ensurePrivateDir(nested)
    expect(modeOf(join(parent, 'a'))).toBe(0o700)
    expect(modeOf(nested)).toBe(0o700)

    const wide = join(parent, 'wide')
    mkdirSync(wide, { mode: 0o777 })
    chmodSync(wide, 0o777)
    ensurePrivateDir(wide)
    expect(modeOf(wide)).toBe(0o700)
  })

  it('keeps the secret, the lock, stored files and the embedded database owner-only', async () => {
    const dataDir = join(parent, 'data')
    chmodSync(parent, 0o755)
    expect(loadOrCreateSecret(dataDir).isNew).toBe(true)
    expect(modeOf(dataDir)).toBe(0o700)
    expect(modeOf(join(dataDir, 'secret'))).toBe(0o600)

    const lock = await holdEmbeddedLock(dataDir)
    expect(lock.path).toBe(join(realpathSync(dataDir), '.lock.sock'))
    expect(modeOf(lock.path)).toBe(0o600)
    await lock.release()

    const storage = createLocalDiskStorage(join(dataDir, 'files'))
    await storage.put('uploads/user-1/photo.jpg', Buffer.from('jpeg'), 'image/jpeg')
    expect(modeOf(join(dataDir, 'files'))).toBe(0o700)
    expect(modeOf(join(dataDir, 'files', 'uploads'))).toBe(0o700)
    expect(modeOf(join(dataDir, 'files', 'uploads', 'user-1'))).toBe(0o700)
    expect(modeOf(join(dataDir, 'files', 'uploads', 'user-1', 'photo.jpg'))).toBe(0o600)

    // The embedded database under a data folder of its own that was made world-readable.
    const dbDir = join(parent, 'db-data')
    mkdirSync(dbDir)
    chmodSync(dbDir, 0o755)
    const database = await openDatabase({ dataDir: dbDir })
    try {
      expect(modeOf(dbDir)).toBe(0o700)
      expect(modeOf(join(dbDir, 'pglite'))).toBe(0o700)
    } finally {
      await database.close()
    }
  }, 60_000)
})

describe('removeOldFiles', () => {
  it('removes files older than the age, keeps newer ones and folders', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrin-incoming-'))
    try {
      writeFileSync(join(dir, 'old.zip'), 'x')
      writeFileSync(join(dir, 'new.zip'), 'y')
      mkdirSync(join(dir, 'folder'))
      const hourAgo = new Date(Date.now() - 3_600_000)
      utimesSync(join(dir, 'old.zip'), hourAgo, hourAgo)
      expect(removeOldFiles(dir, 30 * 60_000)).toBe(1)
      expect(readdirSync(dir).sort()).toEqual(['folder', 'new.zip'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
