import { describe, expect, it, vi } from 'vitest'
import type { GenerationRow } from '#server/db/schema/index.ts'
import { createLocalSignals, createNotifier } from './notifier.ts'

const row = { id: 'gen-1', userId: 'user-1', status: 'running' } as GenerationRow

describe('the in-process notifier', () => {
  it("tells a generation's listeners and its owner's listeners, with the row when there is one", () => {
    const notifier = createNotifier()
    const generation = vi.fn()
    const owner = vi.fn()
    const stranger = vi.fn()
    notifier.onGenerationChanged('gen-1', generation)
    const stop = notifier.onUserGenerationsChanged('user-1', owner)
    notifier.onUserGenerationsChanged('user-2', stranger)

    notifier.generationChanged('gen-1', row)
    // No row (a cancel): the owner is named instead.
    notifier.generationChanged('gen-1', undefined, undefined, 'user-1')
    // The row's owner wins over a stray user id.
    notifier.generationChanged('gen-1', row, undefined, 'user-2')
    stop()
    notifier.generationChanged('gen-1', row)

    expect(generation.mock.calls).toEqual([
      [row, undefined],
      [undefined, undefined],
      [row, undefined],
      [row, undefined],
    ])
    expect(owner.mock.calls).toEqual([
      ['gen-1', row],
      ['gen-1', undefined],
      ['gen-1', row],
    ])
    expect(stranger).not.toHaveBeenCalled()
    expect(notifier.isCrossProcess()).toBe(false)
  })

  it('on a resync, tells every listener to look again', () => {
    const signals = createLocalSignals()
    const generation = vi.fn()
    const owner = vi.fn()
    const work = vi.fn()
    signals.onGenerationChanged('gen-1', generation)
    signals.onUserGenerationsChanged('user-1', owner)
    signals.onWorkAvailable(work)
    const publications = vi.fn()
    signals.onPublicationsDue(publications)

    signals.emitResync()

    expect(generation.mock.calls).toEqual([[undefined, undefined]])
    expect(owner.mock.calls).toEqual([[null, undefined]])
    expect(work).toHaveBeenCalledTimes(1)
    expect(publications).toHaveBeenCalledTimes(1)
  })
})
