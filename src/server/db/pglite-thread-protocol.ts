// Messages between the main thread and the embedded database's thread (pglite-thread.ts).

/** How the thread opens its database: a data folder, or a dump loaded into memory (tests). */
export type ThreadStart = { kind: 'dir'; dataDir: string } | { kind: 'dump'; dump: ArrayBuffer }

type InTransaction = { txId?: number | undefined }

export type ThreadRequest =
  | ({
      op: 'query'
      id: number
      sql: string
      params: unknown[] | undefined
      rowMode: 'array' | 'object' | undefined
      /** Types whose text is returned as it is (the query layer's own date handling). */
      rawTypes: number[] | undefined
    } & InTransaction)
  | ({ op: 'exec'; id: number; sql: string } & InTransaction)
  | { op: 'begin' | 'commit' | 'rollback'; id: number; txId: number }
  | { op: 'close'; id: number }

/** id 0 is the thread's start-up report. */
export type ThreadReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; message: string; fields: Record<string, unknown> }
