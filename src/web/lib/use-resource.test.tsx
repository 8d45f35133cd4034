import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { useResource } from './use-resource.ts'

/** A load whose answers the test hands out one by one, in any order. */
function controlledLoad<T>() {
  const calls: {
    key: string
    signal: AbortSignal
    resolve: (value: T) => void
    reject: (error: unknown) => void
  }[] = []
  const load = vi.fn((key: string, signal: AbortSignal) => {
    return new Promise<T>((resolve, reject) => {
      calls.push({ key, signal, resolve, reject })
    })
  })
  const call = (index: number) => {
    const found = calls[index]
    if (!found) throw new Error(`no call ${index}; ${calls.length} made`)
    return found
  }
  return { load, calls, call }
}

/** useResource over a controlled load with one key: the hook's view and the load's calls. */
function renderControlled<T>() {
  const controlled = controlledLoad<T>()
  const view = renderHook(() => useResource((signal) => controlled.load('', signal)))
  return { ...controlled, ...view }
}

describe('useResource', () => {
  it('loads on mount and shows the data', async () => {
    const { load, call, result } = renderControlled<string>()
    expect(result.current.status).toBe('loading')
    expect(load).toHaveBeenCalledTimes(1)
    await act(async () => call(0).resolve('hello'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'hello' })
  })

  it('shows the error, and Retry loads again', async () => {
    const { load, call, result } = renderControlled<string>()
    const failure = new Error('down')
    await act(async () => call(0).reject(failure))
    expect(result.current).toMatchObject({ status: 'error', error: failure })

    act(() => result.current.reload())
    expect(result.current.status).toBe('loading')
    expect(load).toHaveBeenCalledTimes(2)
    await act(async () => call(1).resolve('back'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'back' })
  })

  it('keeps the data shown while it reloads, then shows the new answer', async () => {
    const { call, result } = renderControlled<number>()
    await act(async () => call(0).resolve(1))
    act(() => result.current.reload())
    expect(result.current).toMatchObject({ status: 'ready', data: 1 })
    await act(async () => call(1).resolve(2))
    expect(result.current).toMatchObject({ status: 'ready', data: 2 })
  })

  it('aborts the request on unmount', () => {
    const { call, unmount } = renderControlled<string>()
    expect(call(0).signal.aborted).toBe(false)
    unmount()
    expect(call(0).signal.aborted).toBe(true)
  })

  it('starts again from loading on a new key and drops the answer for the old one', async () => {
    const { load, call } = controlledLoad<string>()
    const { result, rerender } = renderHook(
      ({ id }) => useResource((signal) => load(id, signal), { key: id }),
      { initialProps: { id: 'a' } },
    )
    await act(async () => call(0).resolve('A1'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'A1' })

    act(() => result.current.reload())
    rerender({ id: 'b' })
    // The reload for `a` was aborted; the data of `a` is not shown as `b`'s.
    expect(call(1)).toMatchObject({ key: 'a' })
    expect(call(1).signal.aborted).toBe(true)
    expect(call(2)).toMatchObject({ key: 'b' })
    expect(result.current.status).toBe('loading')

    await act(async () => call(2).resolve('B'))
    await act(async () => call(1).resolve('A2'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'B' })
  })

  it('adopts replaced data and drops the answer still on its way', async () => {
    const { call, result } = renderControlled<string>()
    act(() => result.current.replace('from a change'))
    expect(call(0).signal.aborted).toBe(true)
    await act(async () => call(0).resolve('stale'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'from a change' })

    act(() => result.current.update((current) => `${current}, updated`))
    expect(result.current).toMatchObject({ status: 'ready', data: 'from a change, updated' })
  })

  it('loads nothing while disabled, and loads once enabled', async () => {
    const { load, call } = controlledLoad<string>()
    const { result, rerender } = renderHook(
      ({ isEnabled }) => useResource((signal) => load('', signal), { isEnabled }),
      { initialProps: { isEnabled: false } },
    )
    expect(load).not.toHaveBeenCalled()
    expect(result.current.status).toBe('loading')
    rerender({ isEnabled: true })
    expect(load).toHaveBeenCalledTimes(1)
    await act(async () => call(0).resolve('now'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'now' })
  })
})
