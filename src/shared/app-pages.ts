/**
 * The signed-in app's pages, rendered in the browser only. The server answers these paths with
 * the app's shell, and any path that is neither one of them nor a public page with a redirect to
 * the home page of its language, as the router does. `:name` stands for one path segment.
 */
export const appPages = [
  { key: 'dashboard', path: '/app' },
  { key: 'create', path: '/app/create' },
  { key: 'fashion', path: '/app/fashion' },
  { key: 'library', path: '/app/library' },
  { key: 'catalogue', path: '/app/catalogue' },
  { key: 'catalogueBatch', path: '/app/catalogue/:id' },
  { key: 'settings', path: '/settings' },
  { key: 'billing', path: '/billing' },
  { key: 'billingSuccess', path: '/billing/success' },
] as const

export type AppPageKey = (typeof appPages)[number]['key']

// A trailing slash is allowed, as the client's router allows it.
const patterns = appPages.map(({ path }) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`))

/** Whether a path (no query) is one of the app's pages. */
export function isAppPath(pathname: string): boolean {
  return appPageOf(pathname) !== null
}

/** The app page a path (no query) opens, or null. */
export function appPageOf(pathname: string): AppPageKey | null {
  const index = patterns.findIndex((pattern) => pattern.test(pathname))
  return index < 0 ? null : (appPages[index]?.key ?? null)
}
