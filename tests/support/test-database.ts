import { readFileSync } from 'node:fs'
import { inject } from 'vitest'
import { type Database, openDatabase } from '#server/db/client.ts'
import { createPostgresDatabase } from './postgres.ts'

/** Which engine this test project runs on: PGlite by default, PostgreSQL for the `server-pg` project. */
export const testEngine: 'pglite' | 'postgres' =
  process.env.VITRIN_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite'

/** A fresh, migrated database for one test file, on the project's engine. */
export async function openTestDatabase(): Promise<Database> {
  if (testEngine === 'postgres') {
    const url = process.env.TEST_DATABASE_URL
    const template = inject('postgresTemplate')
    if (!url || !template) throw new Error('the server-pg project needs TEST_DATABASE_URL')
    const fresh = await createPostgresDatabase(url, template)
    const database = await openDatabase({ databaseUrl: fresh.url, poolMax: 20 })
    return {
      ...database,
      close: async () => {
        await database.close()
        await fresh.drop()
      },
    }
  }
  const dump = readFileSync(inject('pgliteTemplatePath'))
  return openDatabase({ pgliteDump: dump.buffer.slice(dump.byteOffset, dump.byteOffset + dump.byteLength) })
}
