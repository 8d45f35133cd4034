import type { Page } from '@playwright/test'
import { type Lang, localePath } from './i18n.ts'

/**
 * Opens a public page at its address in `lang` (`/tr/…` for Turkish) and waits until the app has
 * taken it over (`waitForHydration`), so the test can type, click and choose on it.
 */
export async function openPublicPage(page: Page, lang: Lang, path: string): Promise<void> {
  await page.goto(localePath(lang, path))
  await waitForHydration(page)
}

/**
 * A public page arrives as prerendered HTML (docs/decisions/0032-public-pages-per-language.md):
 * its form and buttons are on screen before React has hydrated them, and what is typed or
 * clicked by then never reaches the app (a filled field stays empty in its state, a menu button
 * does nothing). React marks each element it has hydrated with a `__reactFiber$…` property; the
 * outermost one is marked last, once the whole page is React's.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const outermost = document.getElementById('root')?.firstElementChild
    return outermost ? Object.keys(outermost).some((key) => key.startsWith('__reactFiber$')) : false
  })
}
