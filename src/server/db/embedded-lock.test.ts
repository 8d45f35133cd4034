import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type LockHolder, startLockHolder } from '#tests/support/embedded-lock-holder.ts'
import {
  askLockHolder,
  EmbeddedLockHeldError,
  embeddedLockPath,
  holdEmbeddedLock,
  type LockRequest,
} from './embedded-lock.ts'

describe('the embedded data folder lock', () => {
  const dirs: string[] = []
  const holders: LockHolder[] = []
  const newDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrin-lock-'))
    dirs.push(dir)
    return dir
  }
  afterEach(async () => {
    for (const holder of holders.splice(0)) await holder.kill('SIGKILL')
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a second holder while the first holds it, and lets the next in once released', async () => {
    const dataDir = newDataDir()
    const first = await holdEmbeddedLock(dataDir)
    await expect(holdEmbeddedLock(dataDir)).rejects.toThrow(
      `the data folder ${dataDir} is in use by process ${process.pid}; stop it first`,
    )
    await first.release()
    expect(existsSync(first.path)).toBe(false)
    const next = await holdEmbeddedLock(dataDir)
    await next.release()
  })

  it("runs an operator's request in the holder and sends back its answer", async () => {
    const dataDir = newDataDir()
    const lock = await holdEmbeddedLock(dataDir)
    try {
      // A holder that answers nothing (a migration, an older server): no answer, so the operator
      // command falls back to saying who holds the folder.
      expect(await askLockHolder(dataDir, { tool: 'access-codes', args: ['list'] })).toBeNull()

      const received: LockRequest[] = []
      lock.answer(async (request) => {
        received.push(request)
        if (request.args[0] === 'boom') throw new Error('the database is gone')
        return { exitCode: 0, stdout: `ran ${request.args.join(' ')}\n`, stderr: '' }
      })
      expect(await askLockHolder(dataDir, { tool: 'access-codes', args: ['create', 'x y'] })).toEqual({
        exitCode: 0,
        stdout: 'ran create x y\n',
        stderr: '',
      })
      expect(received).toEqual([{ tool: 'access-codes', args: ['create', 'x y'] }])
      expect(await askLockHolder(dataDir, { tool: 'access-codes', args: ['boom'] })).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'the database is gone\n',
      })
      // A second holder is still refused at once, with the pid, by a holder that answers requests.
      await expect(holdEmbeddedLock(dataDir)).rejects.toThrow(`in use by process ${process.pid}`)
    } finally {
      await lock.release()
    }
    expect(await askLockHolder(dataDir, { tool: 'access-codes', args: ['list'] })).toBeNull()
  })

  it('refuses while another live process holds it, naming that process', async () => {
    const dataDir = newDataDir()
    const holder = await startLockHolder(dataDir)
    holders.push(holder)
    const refused = await holdEmbeddedLock(dataDir).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(EmbeddedLockHeldError)
    expect((refused as EmbeddedLockHeldError).holderPid).toBe(holder.pid)
  })

  it('is free once its holder is killed with SIGKILL, though the dead socket file is still there', async () => {
    const dataDir = newDataDir()
    const holder = await startLockHolder(dataDir)
    await holder.kill('SIGKILL')
    expect(existsSync(embeddedLockPath(dataDir))).toBe(true)
    const lock = await holdEmbeddedLock(dataDir)
    await lock.release()
  })

  it('ignores a pid file left by a crash whose pid now belongs to another live process', async () => {
    const dataDir = newDataDir()
    const holder = await startLockHolder(dataDir)
    await holder.kill('SIGKILL')
    // The old lock: a pid file. Its pid is now some other process's, alive and not Vitrin.
    writeFileSync(join(dataDir, 'server.pid'), String(process.ppid))
    const lock = await holdEmbeddedLock(dataDir)
    expect(existsSync(join(dataDir, 'server.pid'))).toBe(false)
    await lock.release()
  })

  it('is one lock for every spelling of the folder, and works when its path is too long for a socket', async () => {
    const parent = newDataDir()
    const dataDir = join(
      parent,
      'a-folder-name-long-enough-that-a-socket-inside-could-not-be-named'.repeat(2),
    )
    mkdirSync(dataDir)
    const link = join(parent, 'link')
    symlinkSync(dataDir, link)

    const lock = await holdEmbeddedLock(dataDir)
    expect(lock.path.startsWith(tmpdir())).toBe(true)
    await expect(holdEmbeddedLock(link)).rejects.toBeInstanceOf(EmbeddedLockHeldError)
    await lock.release()
    expect(existsSync(lock.path)).toBe(false)
  })
})
