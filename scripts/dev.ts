import { type ChildProcess, spawn } from 'node:child_process'

// `npm run dev`: the API server with restart on change, and Vite with hot reload, which
// proxies /api to the server. Open the Vite address it prints.
const port = process.env.PORT ?? '3000'
const children: ChildProcess[] = [
  spawn('tsx', ['watch', '--clear-screen=false', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port, HOST: process.env.HOST ?? '127.0.0.1' },
  }),
  spawn('vite', [], { stdio: 'inherit', env: { ...process.env, PORT: port } }),
]

function stop(code = 0) {
  for (const child of children) child.kill('SIGTERM')
  process.exit(code)
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0))
process.on('SIGINT', () => stop())
process.on('SIGTERM', () => stop())
