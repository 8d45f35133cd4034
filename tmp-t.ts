import { createServer, request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import busboy from 'busboy'
const mode = process.argv[2]
const srv = createServer((req, res) => {
  if (mode === 'drain') { let n = 0; req.on('data', (d) => { n += d.length }); req.on('end', () => res.end(String(n))); return }
  const bb = busboy({ headers: req.headers })
  let n = 0
  bb.on('file', (_n, s) => s.on('data', (d: Buffer) => { n += d.length }))
  bb.on('close', () => res.end(String(n)))
  req.pipe(bb)
})
await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
const port = (srv.address() as any).port
const h = monitorEventLoopDelay({ resolution: 5 }); h.enable()
const bytes = Buffer.alloc(10 * 1024 * 1024 - 65536, process.argv[3] ?? '\n')
const boundary = 'xxBOUNDARYxx'
const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="list"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)])
const t = performance.now()
const text = await new Promise<string>((resolve) => {
  const req = request({ port, host: '127.0.0.1', method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } }, (res) => { let s = ''; res.on('data', (d) => (s += d)); res.on('end', () => resolve(s)) })
  req.end(body)
})
console.log(mode, text, performance.now() - t, 'max lag ms', h.max / 1e6)
srv.close()
