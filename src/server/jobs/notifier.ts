import { EventEmitter } from 'node:events'

/**
 * In-process signals: "there is new work" for the embedded worker, and "this generation
 * changed" for event streams. Only a shortcut: separate worker processes and other servers
 * find the same facts by polling the database.
 */
export type Notifier = {
  workAvailable(): void
  onWorkAvailable(listener: () => void): () => void
  generationChanged(id: string): void
  onGenerationChanged(id: string, listener: () => void): () => void
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
    generationChanged: (id) => emitter.emit(`generation:${id}`),
    onGenerationChanged(id, listener) {
      emitter.on(`generation:${id}`, listener)
      return () => emitter.off(`generation:${id}`, listener)
    },
  }
}
