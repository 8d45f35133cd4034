import { ProviderError } from '../types.ts'

/** The provider name every offline result and error carries. */
export const offlineProviderName = 'offline'

/** Stops work the caller no longer wants; checked between the expensive steps. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) {
    throw new ProviderError(offlineProviderName, 'canceled', 'The offline studio request was canceled', {
      cause: signal.reason,
    })
  }
}

/**
 * Runs an image step, turning undecodable input into 'rejected' (the user's file, not our
 * fault) and passing ProviderErrors through unchanged.
 */
export async function withImageInput<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (error) {
    if (error instanceof ProviderError) throw error
    throw new ProviderError(offlineProviderName, 'rejected', 'The offline studio could not read the image', {
      cause: error,
    })
  }
}
