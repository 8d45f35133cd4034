import { type ChildProcess, spawn } from 'node:child_process'

// `npm run dev`: the API server with restart on change, and Vite with hot reload, which
// proxies /api to the server. Open the Vite address it prints.
//
// package.json starts this file with `exec node`, so npm's SIGTERM and SIGINT reach it. It passes
// each one on once and exits when both children have: the server stops as `npm start`'s does
// (tsx watch passes the signal on, and kills it if it is still running after 5 s).
const port = process.env.PORT ?? '3000'
const children: ChildProcess[] = [
  // In a process group of its own, so that Ctrl-C reaches it only through this process: tsx
  // watch kills the server at once on a second signal. (It gets no terminal input so that the
  // group may be in the background; Enter no longer restarts the server.)
  spawn('tsx', ['watch', '--clear-screen=false', 'src/server/main.ts'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
    env: { ...process.env, PORT: port, HOST: process.env.HOST ?? '127.0.0.1' },
  }),
  spawn('vite', [], { stdio: 'inherit', env: { ...process.env, PORT: port } }),
]

let exitCode: number | null = null
let running = children.length

function stop(code: number, signal: NodeJS.Signals = 'SIGTERM') {
  if (exitCode !== null) return
  exitCode = code
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal)
}

for (const child of children) {
  child.on('exit', (code) => {
    // One ending on its own takes the other down with it.
    stop(code ?? 1)
    running -= 1
    if (running === 0) process.exit(exitCode ?? 0)
  })
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => stop(0, signal))
}
