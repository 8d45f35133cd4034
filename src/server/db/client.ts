import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { migrationsFolder } from './migrations-folder.ts'
import * as schema from './schema/index.ts'

export { schema }

/** The Drizzle handle services use; the same type for PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database = {
  db: Db
  kind: 'pglite' | 'postgres'
  /** The embedded engine, when kind is pglite (for tooling that needs the raw instance). */
  pglite?: PGlite
  /** Throws when the database cannot answer a trivial query. */
  ping(): Promise<void>
  /** Applies pending migrations from the one migration folder. */
  migrate(): Promise<void>
  close(): Promise<void>
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite database in `<dataDir>/pglite`. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined
  dataDir?: string
  poolMax?: number
  /** Open an existing PGlite instance (tests build one from a template). */
  pglite?: PGlite
  /** Told when an idle PostgreSQL connection dies (a server restart, a failover). */
  onConnectionError?: (error: Error) => void
}): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, options.poolMax ?? 10, options.onConnectionError)
  if (options.pglite) return wrapPglite(options.pglite)
  const { PGlite } = await import('@electric-sql/pglite')
  const dir = resolve(options.dataDir ?? './data', 'pglite')
  // PGlite creates only the last folder level itself.
  mkdirSync(dirname(dir), { recursive: true })
  return wrapPglite(new PGlite(dir))
}

async function wrapPglite(pglite: PGlite): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/pglite')
  const db = drizzle(pglite, { schema }) as unknown as Db
  await pglite.waitReady
  return {
    db,
    kind: 'pglite',
    pglite,
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: async () => {
      const { migrate } = await import('drizzle-orm/pglite/migrator')
      await migrate(drizzle(pglite, { schema }), { migrationsFolder })
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
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: async () => {
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
      await pool.end()
    },
  }
}
