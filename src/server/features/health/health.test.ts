import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testEngine } from '#tests/support/test-database.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

describe('health endpoints', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('/healthz answers 200 ok', async () => {
    const response = await server.api('/healthz')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  it('/readyz answers 200 ready, naming the database engine', async () => {
    const response = await server.api('/readyz')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ready', database: testEngine })
  })
})

describe('/readyz without a database', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    // Closing twice is harmless for PGlite; a PostgreSQL pool refuses a second end.
    await server.close().catch(() => undefined)
  })

  it('answers 503 unavailable once the database is closed, while /healthz stays 200', async () => {
    await server.database.close()
    const response = await server.api('/readyz')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ status: 'unavailable', database: testEngine })
    expect((await server.api('/healthz')).status).toBe(200)
  })
})
