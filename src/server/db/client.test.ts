import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTableName, is, sql } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import { afterEach, describe, expect, it } from 'vitest'
import { createPostgresDatabase } from '#tests/support/postgres.ts'
import { testEngine } from '#tests/support/test-database.ts'
import { type Database, isMigrated, openDatabase, schema } from './client.ts'
import { migrationsFolder } from './migrations-folder.ts'

/** Every table the Drizzle schema declares: the migrations must create each of them. */
const schemaTables = Object.values(schema)
  .filter((value) => is(value, PgTable))
  .map((table) => getTableName(table))
  .sort()

const migrationCount = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).length

/** An empty, unmigrated database on the project's engine; closing it drops it. */
async function openEmptyDatabase(): Promise<{ open: () => Promise<Database>; drop: () => Promise<void> }> {
  if (testEngine === 'postgres') {
    const url = process.env.TEST_DATABASE_URL
    if (!url) throw new Error('the server-pg project needs TEST_DATABASE_URL')
    const fresh = await createPostgresDatabase(url, 'template0')
    return { open: () => openDatabase({ databaseUrl: fresh.url, poolMax: 4 }), drop: fresh.drop }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-db-test-'))
  return {
    open: () => openDatabase({ dataDir }),
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

async function publicTables(database: Database): Promise<string[]> {
  const result = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  )) as unknown as { rows: { tablename: string }[] }
  return result.rows.map((row) => row.tablename).sort()
}

async function appliedMigrations(database: Database): Promise<number> {
  const result = (await database.db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { n: number }[] }
  return Number(result.rows[0]?.n)
}

describe('database migrations', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it('has migrations to apply, and a schema holding the core tables', () => {
    expect(migrationCount).toBeGreaterThan(0)
    expect(schemaTables).toEqual(
      expect.arrayContaining(['contact_messages', 'email_outbox', 'rate_limit_buckets']),
    )
  })

  it('creates the expected tables on a fresh database, and can be run again', async () => {
    const empty = await openEmptyDatabase()
    cleanups.push(empty.drop)
    const database = await empty.open()
    cleanups.push(() => database.close())
    expect(await publicTables(database)).toEqual([])

    await database.migrate()
    expect(await publicTables(database)).toEqual(schemaTables)
    expect(await appliedMigrations(database)).toBe(migrationCount)

    await database.migrate()
    expect(await publicTables(database)).toEqual(schemaTables)
    expect(await appliedMigrations(database)).toBe(migrationCount)
    await expect(database.ping()).resolves.toBeUndefined()
  })

  it('tells a migrated database in one query, and one missing its newest migration', async () => {
    const empty = await openEmptyDatabase()
    cleanups.push(empty.drop)
    const database = await empty.open()
    cleanups.push(() => database.close())
    expect(await isMigrated(database.db)).toBe(false)
    await database.migrate()
    expect(await isMigrated(database.db)).toBe(true)

    // A restart on an up-to-date database: the check is all that runs.
    if (database.pglite) {
      const client = database.pglite
      const statements: string[] = []
      const query = client.query.bind(client)
      const exec = client.exec.bind(client)
      client.query = (text, ...rest) => {
        statements.push(text)
        return query(text, ...rest)
      }
      client.exec = (text) => {
        statements.push(text)
        return exec(text)
      }
      await database.migrate()
      expect(statements).toHaveLength(1)
      client.query = query
      client.exec = exec
    }

    // Code newer than the database: its newest migration is not recorded.
    await database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    )
    expect(await isMigrated(database.db)).toBe(false)
  })

  it.runIf(testEngine === 'postgres')(
    'lets several servers migrate the same PostgreSQL database at once',
    async () => {
      const empty = await openEmptyDatabase()
      cleanups.push(empty.drop)
      const servers = await Promise.all([empty.open(), empty.open(), empty.open()])
      cleanups.push(async () => {
        for (const server of servers) await server.close()
      })
      await Promise.all(servers.map((server) => server.migrate()))
      expect(await publicTables(servers[0] as Database)).toEqual(schemaTables)
      expect(await appliedMigrations(servers[0] as Database)).toBe(migrationCount)
    },
  )
})
