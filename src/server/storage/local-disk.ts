import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { type ObjectStorage, StorageNotFoundError } from './types.ts'

/** Files under `<root>`, written to a temporary name first and renamed into place. */
export function createLocalDiskStorage(root: string): ObjectStorage {
  const base = resolve(root)
  const pathOf = (key: string) => {
    const path = resolve(join(base, key))
    // Keys are ours, but a key must never reach outside the root all the same.
    if (!path.startsWith(base + sep)) throw new Error(`storage key escapes the root: ${key}`)
    return path
  }
  return {
    kind: 'local',
    async put(key, bytes) {
      const path = pathOf(key)
      // Owner-only folders, owner-only files: uploads and results are private to their users.
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
      await writeFile(temporary, bytes, { mode: 0o600 })
      await rename(temporary, path)
    },
    async get(key) {
      try {
        return await readFile(pathOf(key))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageNotFoundError(key)
        throw error
      }
    },
    async getStream(key) {
      try {
        // Opened here rather than by createReadStream, so a missing file is an error of this call
        // (not a later 'error' event) and nothing can swap the file between a check and the read.
        const handle = await open(pathOf(key), 'r')
        return handle.createReadStream()
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageNotFoundError(key)
        throw error
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
  }
}
