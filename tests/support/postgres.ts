import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase } from '#server/db/client.ts'

/** Same server, another database name. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

/** Creates and migrates a template database that test files clone. */
export async function createPostgresTemplate(url: string) {
  const name = `vitrin_tpl_${randomBytes(4).toString('hex')}`
  await adminQuery(url, `create database ${name}`)
  const database = await openDatabase({ databaseUrl: withDatabaseName(url, name), poolMax: 2 })
  await database.migrate()
  await database.close()
  return {
    name,
    drop: () => adminQuery(url, `drop database if exists ${name} with (force)`),
  }
}

/** A fresh database cloned from the template; drop it when done. */
export async function createPostgresDatabase(url: string, template: string) {
  const name = `vitrin_t_${randomBytes(6).toString('hex')}`
  await adminQuery(url, `create database ${name} template ${template}`)
  return {
    url: withDatabaseName(url, name),
    drop: () => adminQuery(url, `drop database if exists ${name} with (force)`),
  }
}
