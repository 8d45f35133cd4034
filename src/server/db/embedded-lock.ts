import { createHash } from 'node:crypto'
import { chmodSync, realpathSync, rmSync, statSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensurePrivateDir, privateFileMode } from '#server/private-dir.ts'

// The embedded database may be opened by one process at a time: two PGlite instances on one
// folder corrupt it. Whatever opens it (the server, `npm run db:migrate`, the operator CLIs)
// first holds this lock: it listens on a Unix socket in the data folder. The kernel closes that
// socket when the process ends, however it ends, so a crash leaves at most a file nobody answers
// on, which the next holder removes. (A pid file, used before, could name a pid the system had
// since given to another live process, and then blocked every start.)

/** Raised when another live process holds the data folder. */
export class EmbeddedLockHeldError extends Error {
  readonly dataDir: string
  /** The holder's pid as it told us; null when it did not answer in time. */
  readonly holderPid: number | null
  constructor(dataDir: string, holderPid: number | null) {
    const holder = holderPid ? `process ${holderPid}` : 'another process'
    super(`the data folder ${dataDir} is in use by ${holder}; stop it first`)
    this.name = 'EmbeddedLockHeldError'
    this.dataDir = dataDir
    this.holderPid = holderPid
  }
}

export type EmbeddedLock = {
  /** Where the lock's socket is (inside the data folder unless that path is too long). */
  path: string
  /** Stops listening and removes the socket; the next process may take the lock. */
  release(): Promise<void>
}

const socketName = '.lock.sock'
// A socket's path must fit in sun_path: 108 bytes on Linux and 104 on macOS, with its NUL.
const maxSocketPathBytes = 100
// How long a second process waits for the holder to say its pid. A holder whose event loop is
// busy still holds the lock; it is only named less precisely.
const pidAnswerMs = 1000
// A socket found dead is removed and the lock tried again; more rounds than this mean other
// processes are racing for the same folder.
const maxTakeoverRounds = 3

/** The lock's socket path for a data folder that exists: the same for every spelling of it. */
export function embeddedLockPath(dataDir: string): string {
  const realDir = realpathSync(dataDir)
  const digest = createHash('sha256').update(realDir).digest('hex').slice(0, 24)
  // Windows has no socket files: a named pipe, which also ends with its process.
  if (process.platform === 'win32') return `\\\\.\\pipe\\vitrin-${digest}`
  const inFolder = join(realDir, socketName)
  if (Buffer.byteLength(inFolder) <= maxSocketPathBytes) return inFolder
  return join(tmpdir(), `vitrin-${digest}.sock`)
}

/**
 * Takes the data folder for this process, or throws EmbeddedLockHeldError while another live
 * process holds it. The lock does not keep the process alive; it ends with the process.
 */
export async function holdEmbeddedLock(dataDir: string): Promise<EmbeddedLock> {
  ensurePrivateDir(dataDir)
  const path = embeddedLockPath(dataDir)
  for (let round = 0; round < maxTakeoverRounds; round++) {
    const server = await listenOn(path)
    if (server) {
      if (process.platform !== 'win32') chmodSync(path, privateFileMode)
      // The lock file of versions before this one; it means nothing now.
      rmSync(join(dataDir, 'server.pid'), { force: true })
      return holding(server, path)
    }
    const foundInode = inodeOf(path)
    const answer = await askHolder(path)
    if (answer.isHeld) throw new EmbeddedLockHeldError(dataDir, answer.pid)
    // Dead: its process ended without closing. Remove that file only, not one another process
    // may have just put there after finding the same dead file.
    if (foundInode !== null && inodeOf(path) === foundInode) rmSync(path, { force: true })
  }
  throw new EmbeddedLockHeldError(dataDir, null)
}

/** Listens on `path`; null when something is already there. */
function listenOn(path: string): Promise<Server | null> {
  const server = createServer()
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(null)
      else reject(error)
    })
    server.listen({ path }, () => {
      server.removeAllListeners('error')
      resolve(server)
    })
  })
}

function holding(server: Server, path: string): EmbeddedLock {
  const open = new Set<Socket>()
  // Anyone who connects is told who holds the folder, then hung up on.
  server.on('connection', (socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    // The asker may be gone before the answer is written; that is no concern of the holder's.
    socket.on('error', () => {})
    socket.end(`${process.pid}\n`)
  })
  server.on('error', () => {})
  server.unref()
  let released: Promise<void> | null = null
  return {
    path,
    release() {
      released ??= new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy()
        // Closing a listening socket also removes its file.
        server.close(() => resolve())
      })
      return released
    },
  }
}

type HolderAnswer = { isHeld: false } | { isHeld: true; pid: number | null }

/** Connects to the socket at `path`: refused or missing means its holder is dead. */
function askHolder(path: string): Promise<HolderAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path })
    let text = ''
    let isConnected = false
    const settle = (answer: HolderAnswer) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(answer)
    }
    const timer = setTimeout(() => settle({ isHeld: true, pid: null }), pidAnswerMs)
    socket.setEncoding('utf8')
    socket.on('connect', () => {
      isConnected = true
    })
    socket.on('data', (chunk: string) => {
      text += chunk
    })
    socket.on('end', () => settle({ isHeld: true, pid: parsePid(text) }))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (isConnected) settle({ isHeld: true, pid: parsePid(text) })
      else if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') settle({ isHeld: false })
      else {
        clearTimeout(timer)
        socket.destroy()
        reject(error)
      }
    })
  })
}

function parsePid(text: string): number | null {
  const pid = Number(text.trim())
  return Number.isInteger(pid) && pid > 0 ? pid : null
}

function inodeOf(path: string): number | null {
  try {
    return statSync(path).ino
  } catch {
    return null
  }
}
