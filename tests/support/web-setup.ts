import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// A React warning or any console.error during a web test is a bug: fail the test on it.
const originalError = console.error
afterEach(() => {
  cleanup()
})
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  originalError(...args)
  throw new Error(`console.error was called: ${args.map(String).join(' ').slice(0, 500)}`)
})
