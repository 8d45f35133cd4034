import { EventEmitter } from 'node:events'
import type { AssetRow, GenerationRow } from '#server/db/schema/index.ts'

/**
 * Signals: "there is new work" for workers, and "this generation (of this user) changed" for
 * event streams. In one process (the embedded database) they stay in memory (createNotifier);
 * on PostgreSQL they also travel between processes over LISTEN/NOTIFY (pg-notifier.ts). Either
 * way they are a shortcut: workers and streams still look at the database now and then, which
 * is what they rely on when a signal is lost.
 */
export type Notifier = {
  workAvailable(): void
  onWorkAvailable(listener: () => void): () => void
  /** Webhook deliveries are due (an event, a resend, a test): webhook dispatchers look. */
  webhooksDue(): void
  onWebhooksDue(listener: () => void): () => void
  /** Publications are queued (or due again): publishers look. */
  publicationsDue(): void
  onPublicationsDue(listener: () => void): () => void
  /**
   * Says a generation changed. With `row` (the row as the statement that changed it returned
   * it), listeners in this process can skip reading it back; without, they read the database
   * (as listeners in other processes always do). `assets` are files it has just stored (its
   * result), which listeners need not read either. `userId` is its owner's, for
   * onUserGenerationsChanged: needed when there is no row (the row's own wins).
   */
  generationChanged(id: string, row?: GenerationRow, assets?: AssetRow[], userId?: string): void
  /**
   * Called on every change of the generation; also with neither row nor assets when changes may
   * have been missed (see onUserGenerationsChanged), so the listener reads the database.
   */
  onGenerationChanged(id: string, listener: GenerationListener): () => void
  /**
   * Called on every change of any of the user's generations, with its id (and the row when this
   * process made the change). `id` null means notices may have been lost (the connection that
   * brings other processes' notices was down): re-read everything watched.
   */
  onUserGenerationsChanged(userId: string, listener: UserGenerationsListener): () => void
  /**
   * True while other processes' notices reach this one (PostgreSQL LISTEN is up), so a change
   * made anywhere is heard at once and looking at the database is only a safety net.
   */
  isCrossProcess(): boolean
  /** Sends what is still pending and stops listening (before the database closes). */
  close(): Promise<void>
}

export type GenerationListener = (row: GenerationRow | undefined, assets: AssetRow[] | undefined) => void
export type UserGenerationsListener = (id: string | null, row: GenerationRow | undefined) => void

/** The in-memory half every notifier has: who listens to what in this process. */
export type LocalSignals = Pick<
  Notifier,
  | 'onWorkAvailable'
  | 'onWebhooksDue'
  | 'onPublicationsDue'
  | 'onGenerationChanged'
  | 'onUserGenerationsChanged'
> & {
  emitWork(): void
  emitWebhooks(): void
  emitPublications(): void
  emitGeneration(id: string, row?: GenerationRow, assets?: AssetRow[], userId?: string): void
  /** Changes may have been missed: every listener hears "look again" (no row, null id, work). */
  emitResync(): void
}

export function createLocalSignals(): LocalSignals {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  const subscribe = <A extends unknown[]>(event: string, listener: (...args: A) => void) => {
    emitter.on(event, listener as (...args: unknown[]) => void)
    return () => {
      emitter.off(event, listener as (...args: unknown[]) => void)
    }
  }
  return {
    emitWork: () => emitter.emit('work'),
    emitWebhooks: () => emitter.emit('webhooks'),
    emitPublications: () => emitter.emit('publications'),
    emitGeneration(id, row, assets, userId) {
      emitter.emit(`generation:${id}`, row, assets)
      const owner = row?.userId ?? userId
      if (owner) emitter.emit(`user:${owner}`, id, row)
    },
    emitResync() {
      for (const event of emitter.eventNames()) {
        if (typeof event !== 'string') continue
        if (event.startsWith('generation:')) emitter.emit(event, undefined, undefined)
        else if (event.startsWith('user:')) emitter.emit(event, null, undefined)
      }
      emitter.emit('work')
      emitter.emit('webhooks')
      emitter.emit('publications')
    },
    onWorkAvailable: (listener) => subscribe('work', listener),
    onWebhooksDue: (listener) => subscribe('webhooks', listener),
    onPublicationsDue: (listener) => subscribe('publications', listener),
    onGenerationChanged: (id, listener) => subscribe(`generation:${id}`, listener),
    onUserGenerationsChanged: (userId, listener) => subscribe(`user:${userId}`, listener),
  }
}

/** The notifier of a single process (the embedded database): signals stay in memory. */
export function createNotifier(): Notifier {
  const local = createLocalSignals()
  return {
    workAvailable: local.emitWork,
    onWorkAvailable: local.onWorkAvailable,
    webhooksDue: local.emitWebhooks,
    onWebhooksDue: local.onWebhooksDue,
    publicationsDue: local.emitPublications,
    onPublicationsDue: local.onPublicationsDue,
    generationChanged: local.emitGeneration,
    onGenerationChanged: local.onGenerationChanged,
    onUserGenerationsChanged: local.onUserGenerationsChanged,
    isCrossProcess: () => false,
    close: async () => {},
  }
}
