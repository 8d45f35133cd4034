import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { type AppProcess, startAppProcess } from '#tests/support/app-child.ts'
import { csvOf, largeSheetXlsx, productRow, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import type { TestClient } from '#tests/support/test-server.ts'

// The worst inputs found against the catalogue import, sent while /healthz is asked again and
// again: none may hold the server. Each used to stall every request: 10 MB of empty lines parsed
// on the main thread (321 s), a 90 MB sheet loaded whole before the row cap (29.6 s), 1,000 image
// links that never answer fetched 4 at a time until each timed out (about an hour). A photo ZIP
// of 10,000 entries (the most allowed) held the request thread for 90 ms at a time while its
// directory was walked.

/** The slowest /healthz answer allowed while the inputs are handled. */
const healthBudgetMs = 200
const photoStepSeconds = 3

let server: AppProcess
/** Accepts connections and never answers: every image link to it hangs. */
let slowHost: Server
const held: Socket[] = []
let slowOrigin: string
const folder = mkdtempSync(join(tmpdir(), 'vitrin-hostile-'))

/**
 * Asks /healthz one request after another until `work` settles, and returns the slowest answer.
 * The server runs in a process of its own (nothing this test does can delay its answers), so a
 * stalled event loop there delays these answers by as much.
 */
async function slowestHealthAnswerDuring<T>(
  work: Promise<T>,
): Promise<{ result: T; slowestMs: number; asked: number }> {
  let isDone = false
  let slowestMs = 0
  let asked = 0
  const settled = work.finally(() => {
    isDone = true
  })
  while (!isDone) {
    const started = performance.now()
    const response = await fetch(`${server.url}/healthz`)
    await response.arrayBuffer()
    slowestMs = Math.max(slowestMs, performance.now() - started)
    asked++
    expect(response.status).toBe(200)
  }
  return { result: await settled, slowestMs, asked }
}

type Multipart = { body: Buffer; contentType: string }

/** A multipart body with one file, built in one piece before any clock starts. */
function multipart(bytes: Buffer, name: string, field = 'list'): Multipart {
  const boundary = `vitrin-${Math.random().toString(36).slice(2)}`
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${encodeURIComponent(name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`
  const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)])
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Sends a request from a child process and resolves with its status and JSON body. */
const senderScript = `
const { openAsBlob } = await import('node:fs')
const [url, cookie, contentType, file] = process.argv.slice(1)
const response = await fetch(url, { method: 'POST', headers: { cookie, 'content-type': contentType }, body: await openAsBlob(file) })
process.stdout.write(JSON.stringify({ status: response.status, body: await response.json() }))
`

/**
 * Imports a list the way a browser would, from another process: sending 10 MB from this one
 * would put the client's own writes on the event loop that times /healthz here, and the answers
 * would be timed late by the test's sending rather than by the server.
 */
function importList(client: TestClient, file: Multipart) {
  return sendFromChild(client, '/api/catalogue/imports', file)
}

/** POSTs a multipart body to `path` from another process (see importList). */
async function sendFromChild(client: TestClient, urlPath: string, file: Multipart) {
  const path = join(folder, `body-${Math.random().toString(36).slice(2)}`)
  await writeFile(path, file.body)
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', senderScript, `${server.url}${urlPath}`, cookie, file.contentType, path],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  await rm(path, { force: true })
  if (code !== 0) throw new Error(`the sending process failed (exit code ${code})`)
  return JSON.parse(output) as { status: number; body: ErrorBody & CatalogueImportView }
}

describe('hostile catalogue inputs', () => {
  beforeAll(async () => {
    slowHost = createServer((socket) => {
      held.push(socket)
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => slowHost.listen(0, '127.0.0.1', resolve))
    const address = slowHost.address()
    if (!address || typeof address === 'string') throw new Error('no address')
    slowOrigin = `http://127.0.0.1:${address.port}`
    server = await startAppProcess({
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      CATALOGUE_PHOTO_STEP_SECONDS: String(photoStepSeconds),
      CATALOGUE_IMPORTS_PER_HOUR: '4',
      CATALOGUE_PHOTO_CHECKS_PER_HOUR: '1',
    })
  })
  afterAll(async () => {
    await server?.close()
    for (const socket of held) socket.destroy()
    await new Promise((resolve) => slowHost?.close(resolve))
    await rm(folder, { recursive: true, force: true })
  })

  it('keeps /healthz under 200 ms through 10 MB of empty lines, a 90 MB sheet, 1,000 hanging image links and a 10,000-entry photo ZIP', async () => {
    const client = await signedInClient(server)
    // Made before the clock starts: building and packing the sheet takes the test's own time.
    const newlines = multipart(Buffer.alloc(10 * 1024 * 1024 - 64 * 1024, '\n'), 'boş satırlar.csv')
    const sheetBytes = await largeSheetXlsx(480_000)
    expect(sheetBytes.length).toBeLessThan(10 * 1024 * 1024)
    const sheet = multipart(sheetBytes, 'büyük.xlsx')
    const manyEntries = multipart(
      await zipOf(
        Array.from({ length: 10_000 }, (_, index) => ({
          name: `fotoğraflar/klasör-${index % 50}/ürün-${index}-${'x'.repeat(60)}.jpg`,
          store: true,
        })),
      ),
      'fotoğraflar.zip',
      'zip',
    )

    // For comparison (the machine's own delays): an ordinary 20-row list, timed the same way.
    const ordinary = await slowestHealthAnswerDuring(
      importList(client, multipart(csvOf(Array.from({ length: 20 }, (_, i) => productRow(i + 1))), 'a.csv')),
    )
    expect(ordinary.result.status).toBe(201)

    const csv = await slowestHealthAnswerDuring(importList(client, newlines))
    expect(csv.result.status).toBe(422)
    expect(csv.result.body.error.code).toBe('CATALOGUE_FILE_TOO_COMPLEX')

    // The most parsing the caps let through: 10 MB of quoted Turkish cells, just under the line
    // cap, every byte decoded and parsed (hundreds of ms on the request thread). From another
    // account: each account has 4 imports an hour here.
    const dense = multipart(
      Buffer.from(`${Array.from({ length: 60 }, () => '"ğüşİ"').join(',')}\n`.repeat(15_700)),
      'yoğun.csv',
    )
    const denseCsv = await slowestHealthAnswerDuring(importList(await signedInClient(server), dense))
    expect(denseCsv.result.status).toBe(400)
    expect(denseCsv.result.body.error.code).toBe('CATALOGUE_TOO_MANY_ROWS')

    const xlsx = await slowestHealthAnswerDuring(importList(client, sheet))
    expect(xlsx.result.status).toBe(400)
    expect(xlsx.result.body.error.code).toBe('CATALOGUE_TOO_MANY_ROWS')

    const rows = Array.from({ length: 1_000 }, (_, index) =>
      productRow(index + 1, { 'Görsel 1': `${slowOrigin}/photo-${index + 1}.jpg` }),
    )
    const listed = await importList(client, multipart(csvOf(rows), 'bağlantılar.csv'))
    expect(listed.status).toBe(201)
    const startedAt = performance.now()
    const photos = await slowestHealthAnswerDuring(
      client.request(`/api/catalogue/batches/${listed.body.batch.id}/photos`, {
        method: 'POST',
        body: new FormData(),
      }),
    )
    const elapsedMs = performance.now() - startedAt
    expect(photos.result.status).toBe(200)
    const view = (await photos.result.json()) as CatalogueImportView
    // One deadline for the whole step, not one per link: every row past it says so.
    expect(elapsedMs).toBeLessThan(photoStepSeconds * 1000 + 5_000)
    const timedOut = view.problems.filter((problem) => problem.code === 'imageTimedOut')
    expect(timedOut).toHaveLength(1_000)
    expect(view.batch.productCount).toBe(0)

    // Another account (one photo check an hour each here), its list naming photos the ZIP lacks.
    const zipClient = await signedInClient(server)
    const zipList = await importList(
      zipClient,
      multipart(csvOf(Array.from({ length: 20 }, (_, i) => productRow(i + 1))), 'fotoğraflı.csv'),
    )
    expect(zipList.status).toBe(201)
    const zip = await slowestHealthAnswerDuring(
      sendFromChild(zipClient, `/api/catalogue/batches/${zipList.body.batch.id}/photos`, manyEntries),
    )
    expect(zip.result.status).toBe(200)
    expect(zip.result.body.zipPhotoCount).toBe(10_000)

    console.info(
      `slowest /healthz: ordinary list ${ordinary.slowestMs.toFixed(0)} ms (${ordinary.asked} asked), CSV ${csv.slowestMs.toFixed(0)} ms (${csv.asked} asked), dense CSV ${denseCsv.slowestMs.toFixed(0)} ms (${denseCsv.asked}), XLSX ${xlsx.slowestMs.toFixed(0)} ms (${xlsx.asked}), links ${photos.slowestMs.toFixed(0)} ms (${photos.asked}), ZIP ${zip.slowestMs.toFixed(0)} ms (${zip.asked})`,
    )
    expect(csv.slowestMs).toBeLessThan(healthBudgetMs)
    expect(denseCsv.slowestMs).toBeLessThan(healthBudgetMs)
    expect(xlsx.slowestMs).toBeLessThan(healthBudgetMs)
    expect(photos.slowestMs).toBeLessThan(healthBudgetMs)
    expect(zip.slowestMs).toBeLessThan(healthBudgetMs)
  }, 180_000)

  it('limits imports and photo checks per account, with 429 RATE_LIMITED', async () => {
    const client = await signedInClient(server)
    const list = csvOf([productRow(1), productRow(2)])
    const first = await importList(client, multipart(list, 'a.csv'))
    expect(first.status).toBe(201)
    const photos = (path: string) => client.request(path, { method: 'POST', body: new FormData() })
    const path = `/api/catalogue/batches/${first.body.batch.id}/photos`
    const check = await photos(path)
    expect(check.status, await check.clone().text()).toBe(200)
    const secondCheck = await photos(path)
    expect(secondCheck.status).toBe(429)
    expect(((await secondCheck.json()) as ErrorBody).error.code).toBe('RATE_LIMITED')
    expect((await importList(client, multipart(list, 'b.csv'))).status).toBe(201)
    expect((await importList(client, multipart(list, 'c.csv'))).status).toBe(201)
    expect((await importList(client, multipart(list, 'd.csv'))).status).toBe(201)
    const fourth = await importList(client, multipart(list, 'e.csv'))
    expect(fourth.status).toBe(429)
    expect(fourth.body.error.code).toBe('RATE_LIMITED')
  })
})
