import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openPgliteThread, type PgliteClient } from './pglite-thread.ts'

describe('the embedded database on its own thread', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function open(): Promise<PgliteClient> {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-pglite-thread-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const client = openPgliteThread({ kind: 'dir', dataDir })
    cleanups.push(() => client.close())
    await client.waitReady
    await client.exec('create table counter (id int primary key, value int not null)')
    await client.query('insert into counter values (1, 0)')
    return client
  }

  it('runs statements in the order they were sent, without waiting between them', async () => {
    const client = await open()
    const reads: Promise<{ rows: { value: number }[] }>[] = []
    const writes: Promise<unknown>[] = []
    for (let i = 1; i <= 300; i++) {
      writes.push(client.query('update counter set value = $1 where id = 1', [i]))
      reads.push(client.query<{ value: number }>('select value from counter where id = 1'))
    }
    await Promise.all(writes)
    const values = (await Promise.all(reads)).map((result) => result.rows[0]?.value)
    expect(values).toEqual(Array.from({ length: 300 }, (_, i) => i + 1))
  })

  it('keeps statements sent outside a transaction out of it until it ends', async () => {
    const client = await open()
    let outside: Promise<{ rows: { value: number }[] }> | undefined
    await expect(
      client.transaction(async (tx) => {
        await tx.query('update counter set value = 100 where id = 1')
        outside = client.query<{ value: number }>('select value from counter where id = 1')
        await tx.query('update counter set value = 200 where id = 1')
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    // Rolled back, and the outside read waited for that.
    expect((await outside)?.rows[0]?.value).toBe(0)
    await client.transaction(async (tx) => {
      await tx.query('update counter set value = 7 where id = 1')
    })
    expect((await client.query<{ value: number }>('select value from counter')).rows[0]?.value).toBe(7)
  })

  it('passes database errors with their code, and keeps dates as text when asked', async () => {
    const client = await open()
    const error = await client.query('insert into counter values (1, 1)').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ code: '23505', constraint: 'counter_pkey' })
    const parsed = await client.query<{ at: Date }>(`select timestamptz '2026-01-02 03:04:05+00' as at`)
    expect(parsed.rows[0]?.at).toBeInstanceOf(Date)
    const raw = await client.query<{ at: string }>(`select timestamptz '2026-01-02 03:04:05+00' as at`, [], {
      parsers: { 1184: (value: string) => value },
    })
    expect(typeof raw.rows[0]?.at).toBe('string')
  })

  it('refuses statements once closed', async () => {
    const client = await open()
    await client.close()
    expect(client.closed).toBe(true)
    await expect(client.query('select 1')).rejects.toThrow('closed')
  })
})
