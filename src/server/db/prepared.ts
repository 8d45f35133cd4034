import type { Db } from './client.ts'

/**
 * A statement built and prepared once per database handle, for hot paths (the /v1 key lookup,
 * a generation's read): drizzle then does not rebuild the query on every request, and
 * PostgreSQL keeps the named statement's plan per connection. `build` must call
 * `.prepare(name)` with a name no other statement uses, and take every per-request value as
 * a `sql.placeholder`.
 */
export function preparedPerDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>()
  return (db) => {
    let statement = built.get(db)
    if (!statement) {
      statement = build(db)
      built.set(db, statement)
    }
    return statement
  }
}
