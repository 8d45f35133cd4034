import type { GenerationMode } from '#shared/contracts/generations.ts'
import type { LibraryFilter } from './api/generations-api.ts'

const modes: readonly GenerationMode[] = ['image', 'video', 'seo']

/** The filter kept in the library's URL: `?type=image|video|seo&saved=1`. Unknown values mean "all". */
export function filterFromSearch(params: URLSearchParams): LibraryFilter {
  const type = params.get('type')
  const mode = modes.find((candidate) => candidate === type)
  return { mode, saved: params.get('saved') === '1' }
}

/** The query string for a filter (without `open`: changing the filter closes any open item). */
export function searchForFilter(filter: LibraryFilter): string {
  const params = new URLSearchParams()
  if (filter.mode) params.set('type', filter.mode)
  if (filter.saved) params.set('saved', '1')
  const search = params.toString()
  return search ? `?${search}` : ''
}
