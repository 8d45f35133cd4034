import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { privateDirMode } from '#server/private-dir.ts'
import { migrationsFolder } from './migrations-folder.ts'
import { openPgliteFolder, openPgliteThread, type PgliteClient } from './pglite-thread.ts'
import * as schema from './schema/index.ts'

export { schema }

/** The Drizzle handle services use; the same type for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database = {
  db: Db
  kind: 'pglite' | 'postgres'
  /** The embedded engine's client, when kind is pglite (for tooling that counts its statements). */
  pglite?: PgliteClient
  /** Throws when the database cannot answer a trivial query. */
  ping(): Promise<void>
  /**
   * Applies pending migrations from the one migration folder. A database that has them all is
   * told by one query, and nothing else is read or run (isMigrated).
   */
  migrate(): Promise<void>
  /**
   * PostgreSQL only: a connection of its own, outside the pool, for what needs a session that
   * stays (LISTEN, in events/pg-notifier.ts). Ended by close(); refused with
   * DatabaseClosedError once the database is closed.
   */
  openSession?: (options?: { applicationName?: string }) => Promise<DatabaseSession>
  close(): Promise<void>
}

/** A dedicated PostgreSQL connection (see Database.openSession). */
export type DatabaseSession = import('pg').Client

/** Asked for a session after close(): whoever asked is shutting down too. */
export class DatabaseClosedError extends Error {
  constructor() {
    super('the database is closed')
    this.name = 'DatabaseClosedError'
  }
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite database in `<dataDir>/pglite`. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined
  dataDir?: string
  poolMax?: number
  /** Open an in-memory copy of a PGlite data folder dump (tests start from a migrated template). */
  pgliteDump?: ArrayBuffer
  /** Told when an idle PostgreSQL connection dies (a server restart, a failover). */
  onConnectionError?: (error: Error) => void
  /**
   * The data folder's database thread, already started with openPgliteFolder (main.ts starts it
   * first, so that PGlite loads on its thread while the app's modules load on this one).
   */
  pgliteThread?: PgliteClient
}): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, options.poolMax ?? 10, options.onConnectionError)
  if (options.pgliteDump) return wrapPglite(openPgliteThread({ kind: 'dump', dump: options.pgliteDump }))
  const dataDir = options.dataDir ?? './data'
  const database = await wrapPglite(options.pgliteThread ?? openPgliteFolder(dataDir))
  const dir = resolve(dataDir, 'pglite')
  if (existsSync(dir)) chmodSync(dir, privateDirMode)
  return database
}

/** The newest migration of the folder: its journal's latest `when`, which drizzle records as created_at. */
function newestMigrationMillis(): number {
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as {
    entries: { when: number }[]
  }
  return Math.max(...journal.entries.map((entry) => entry.when))
}

/**
 * Whether the database has every migration of the folder, in one query on drizzle's own table:
 * its migrator applies each migration newer than the newest it recorded, so none is pending once
 * that one is at least the folder's newest. A database without the table (new) has not.
 */
export async function isMigrated(db: Db): Promise<boolean> {
  let result: { rows: { last: string | number | null }[] }
  try {
    result = (await db.execute(
      sql`select max(created_at) as last from drizzle.__drizzle_migrations`,
    )) as unknown as typeof result
  } catch {
    return false
  }
  const last = result.rows[0]?.last
  return last !== null && last !== undefined && Number(last) >= newestMigrationMillis()
}

async function wrapPglite(pglite: PgliteClient): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/pglite')
  // The thread client speaks the part of PGlite's API the query layer uses.
  const asPglite = pglite as unknown as import('@electric-sql/pglite').PGlite
  const db = drizzle(asPglite, { schema }) as unknown as Db
  try {
    await pglite.waitReady
  } catch (error) {
    await pglite.close()
    throw error
  }
  return {
    db,
    kind: 'pglite',
    pglite,
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: async () => {
      if (await isMigrated(db)) return
      const { migrate } = await import('drizzle-orm/pglite/migrator')
      await migrate(drizzle(asPglite, { schema }), { migrationsFolder })
    },
    close: async () => {
      if (!pglite.closed) await pglite.close()
    },
  }
}

// Any constant works; it only has to be the same for every Vitrin process.
const migrationLockId = 727_274_601

async function openPostgres(
  url: string,
  poolMax: number,
  onConnectionError?: (error: Error) => void,
): Promise<Database> {
  const { default: pg } = await import('pg')
  const { drizzle } = await import('drizzle-orm/node-postgres')
  const pool = new pg.Pool({ connectionString: url, max: poolMax })
  // An idle connection dropped by the server would otherwise be an unhandled error that ends the
  // process; the pool replaces it, and a query in flight gets its own error as usual.
  pool.on('error', (error) => onConnectionError?.(error))
  const db = drizzle(pool, { schema }) as unknown as Db
  const sessions = new Set<DatabaseSession>()
  let isClosed = false
  return {
    db,
    kind: 'postgres',
    openSession: async (sessionOptions = {}) => {
      if (isClosed) throw new DatabaseClosedError()
      const client = new pg.Client({
        connectionString: url,
        // A connection that only listens sends nothing for long stretches: TCP keep-alive lets
        // the system notice a peer that vanished without closing it.
        keepAlive: true,
        ...(sessionOptions.applicationName ? { application_name: sessionOptions.applicationName } : {}),
      })
      sessions.add(client)
      client.once('end', () => sessions.delete(client))
      try {
        await client.connect()
      } catch (error) {
        sessions.delete(client)
        // Without a listener, a later error event on the failed client would end the process.
        client.on('error', () => {})
        await client.end().catch(() => {})
        throw error
      }
      if (isClosed) {
        await client.end().catch(() => {})
        throw new DatabaseClosedError()
      }
      return client
    },
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: async () => {
      // Up to date: no lock taken, nothing read (the usual restart).
      if (await isMigrated(db)) return
      const { migrate } = await import('drizzle-orm/node-postgres/migrator')
      // Servers and workers that start together take turns: a session-level advisory lock,
      // held on one dedicated connection while that connection applies the migrations.
      const client = await pool.connect()
      try {
        await client.query('select pg_advisory_lock($1)', [migrationLockId])
        try {
          await migrate(drizzle(client, { schema }), { migrationsFolder })
        } finally {
          await client.query('select pg_advisory_unlock($1)', [migrationLockId])
        }
      } finally {
        client.release()
      }
    },
    close: async () => {
      isClosed = true
      await Promise.all([...sessions].map((client) => client.end().catch(() => {})))
      await pool.end()
    },
  }
}
