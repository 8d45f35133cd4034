import { EventEmitter } from 'node:events'
import type { AssetRow, GenerationRow } from '#server/db/schema/index.ts'

/**
 * In-process signals: "there is new work" for the embedded worker, and "this generation
 * changed" for event streams. Only a shortcut: separate worker processes and other servers
 * find the same facts by polling the database.
 */
export type Notifier = {
  workAvailable(): void
  onWorkAvailable(listener: () => void): () => void
  /**
   * Says a generation changed. With `row` (the row as the statement that changed it returned
   * it), listeners can skip reading it back; without, they read the database. `assets` are
   * files it has just stored (its result), which listeners need not read either.
   */
  generationChanged(id: string, row?: GenerationRow, assets?: AssetRow[]): void
  onGenerationChanged(
    id: string,
    listener: (row: GenerationRow | undefined, assets: AssetRow[] | undefined) => void,
  ): () => void
}

export function createNotifier(): Notifier {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    workAvailable: () => emitter.emit('work'),
    onWorkAvailable(listener) {
      emitter.on('work', listener)
      return () => emitter.off('work', listener)
    },
    generationChanged: (id, row, assets) => emitter.emit(`generation:${id}`, row, assets),
    onGenerationChanged(id, listener) {
      emitter.on(`generation:${id}`, listener)
      return () => emitter.off(`generation:${id}`, listener)
    },
  }
}
