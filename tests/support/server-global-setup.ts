import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import type { TestProject } from 'vitest/node'
import { migrationsFolder } from '#server/db/migrations-folder.ts'
import { createPostgresTemplate } from './postgres.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a migrated PGlite data dump; each test file opens its own copy. */
    pgliteTemplatePath: string
    /** Name of a migrated PostgreSQL template database, when TEST_DATABASE_URL is set. */
    postgresTemplate: string | null
  }
}

/**
 * Runs once per test run: migrates an empty database once and keeps it as a template,
 * so each test file starts from a fresh copy in a fraction of the time.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'vitrin-test-'))
  // Built here, in this thread, because only the engine itself can dump its data folder; the
  // app opens copies on its database thread (db/pglite-thread.ts) from the same migrations.
  const pglite = new PGlite()
  await migrate(drizzle(pglite), { migrationsFolder })
  const dump = await pglite.dumpDataDir('none')
  const templatePath = join(dir, 'template.tar')
  writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()))
  await pglite.close()
  project.provide('pgliteTemplatePath', templatePath)

  const postgresUrl = process.env.TEST_DATABASE_URL
  const isPostgresProject = project.config.env?.VITRIN_TEST_ENGINE === 'postgres'
  const postgres = postgresUrl && isPostgresProject ? await createPostgresTemplate(postgresUrl) : null
  project.provide('postgresTemplate', postgres?.name ?? null)

  return async () => {
    await postgres?.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}
