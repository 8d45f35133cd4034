import { appPages } from '#shared/app-pages.ts'
import { publicPages } from '#shared/public-pages.ts'

// Page paths come from the one route table (shared/app-pages.ts and shared/public-pages.ts), so
// a link cannot point at a page that does not exist, and moving a page is one edit. A public
// page's link is localised by the caller (`useLocalizedHref`), a query or a hash appended by it.

type Page = (typeof appPages)[number] | (typeof publicPages)[number]

/** Every page of the app and the public site, by its key in the route table. */
export type PageKey = Page['key']

type PathOf<K extends PageKey> = Extract<Page, { key: K }>['path']

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

type ParamsArg<K extends PageKey> = [ParamNames<PathOf<K>>] extends [never]
  ? []
  : [params: Record<ParamNames<PathOf<K>>, string>]

const pathOf = new Map<string, string>([...appPages, ...publicPages].map((page) => [page.key, page.path]))

/** A page's path: `href('library')` is `/app/library`; `href('catalogueBatch', { id })` fills `:id`. */
export function href<K extends PageKey>(key: K, ...[params]: ParamsArg<K>): string {
  const path = pathOf.get(key) as string
  if (!params) return path
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent((params as Record<string, string>)[name] ?? ''),
  )
}
