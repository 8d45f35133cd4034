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
  /**
   * Runs operator requests sent to the lock's socket (askLockHolder): an operator command needs
   * the database, which only the holder may open, so the holder runs it. The socket is the
   * owner's alone (mode 0600 in an owner-only folder), as the data folder itself is.
   */
  answer(handler: LockRequestHandler): void
  /** Stops listening and removes the socket; the next process may take the lock. */
  release(): Promise<void>
}

/** An operator request: which tool, with the arguments it was given on the command line. */
export type LockRequest = { tool: string; args: string[] }
/** What the tool printed and its exit code, as it would have on its own. */
export type LockAnswer = { exitCode: number; stdout: string; stderr: string }
export type LockRequestHandler = (request: LockRequest) => Promise<LockAnswer>

const socketName = '.lock.sock'
// A socket's path must fit in sun_path: 108 bytes on Linux and 104 on macOS, with its NUL.
const maxSocketPathBytes = 100
// How long a second process waits for the holder to say its pid. A holder whose event loop is
// busy still holds the lock; it is only named less precisely.
const pidAnswerMs = 1000
// How long the holder waits for an operator's request after saying its pid, and how long an
// operator waits for the answer (a long list still takes well under this).
const requestWaitMs = 2000
const answerWaitMs = 60_000
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
  let handler: LockRequestHandler | null = null
  // Anyone who connects is told who holds the folder; then, when the holder answers requests,
  // it reads one request line and writes the answer; else it hangs up.
  server.on('connection', (socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    // The asker may be gone before the answer is written; that is no concern of the holder's.
    socket.on('error', () => {})
    if (!handler) {
      socket.end(`${process.pid}\n`)
      return
    }
    socket.write(`${process.pid}\n`)
    serveOneRequest(socket, handler)
  })
  server.on('error', () => {})
  server.unref()
  let released: Promise<void> | null = null
  return {
    path,
    answer(next) {
      handler = next
    },
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

function serveOneRequest(socket: Socket, handler: LockRequestHandler) {
  let text = ''
  const timer = setTimeout(() => socket.end(), requestWaitMs)
  timer.unref()
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    text += chunk
    const end = text.indexOf('\n')
    if (end === -1) {
      if (text.length > 64 * 1024) socket.destroy()
      return
    }
    clearTimeout(timer)
    socket.removeAllListeners('data')
    const request = parseRequest(text.slice(0, end))
    const answered = request
      ? handler(request).catch(
          (error: unknown): LockAnswer => ({
            exitCode: 1,
            stdout: '',
            stderr: `${error instanceof Error ? error.message : String(error)}\n`,
          }),
        )
      : Promise.resolve<LockAnswer>({ exitCode: 2, stdout: '', stderr: 'not a request\n' })
    void answered.then((answer) => socket.end(`${JSON.stringify(answer)}\n`))
  })
}

function parseRequest(line: string): LockRequest | null {
  try {
    const value = JSON.parse(line) as unknown
    if (typeof value !== 'object' || value === null) return null
    const { tool, args } = value as Record<string, unknown>
    if (typeof tool !== 'string' || !Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))
      return null
    return { tool, args }
  } catch {
    return null
  }
}

/**
 * Sends an operator request to the process holding the data folder and returns its answer;
 * null when nothing holds it, or the holder does not answer requests (a migration, another
 * operator command, a server of an older version).
 */
export function askLockHolder(dataDir: string, request: LockRequest): Promise<LockAnswer | null> {
  const path = embeddedLockPath(dataDir)
  return new Promise((resolve) => {
    const socket = connect({ path })
    let text = ''
    const settle = (answer: LockAnswer | null) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(answer)
    }
    const timer = setTimeout(() => settle(null), answerWaitMs)
    socket.setEncoding('utf8')
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`))
    socket.on('data', (chunk: string) => {
      text += chunk
    })
    socket.on('end', () => settle(parseAnswer(text.split('\n')[1] ?? '')))
    socket.on('error', () => settle(parseAnswer(text.split('\n')[1] ?? '')))
  })
}

function parseAnswer(line: string): LockAnswer | null {
  try {
    const value = JSON.parse(line) as LockAnswer
    return typeof value.exitCode === 'number' &&
      typeof value.stdout === 'string' &&
      typeof value.stderr === 'string'
      ? value
      : null
  } catch {
    return null
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
      // A holder that answers requests keeps the line open after its pid: the pid is enough.
      if (text.includes('\n')) settle({ isHeld: true, pid: parsePid(text.split('\n')[0] ?? '') })
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
