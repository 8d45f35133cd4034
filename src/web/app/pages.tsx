import { type ComponentType, lazy } from 'react'
import type { AppPageKey } from '#shared/app-pages.ts'
import type { PublicPageKey } from '#shared/public-pages.ts'
import { ensureAllMessages } from '#web/lib/i18n.tsx'

/**
 * A page of the app: its own chunk, loaded when first visited (docs/decisions/0004-web-bundle-budget.md),
 * and loadable ahead of rendering with `preload`. Once loaded, the lazy component resolves
 * synchronously, so a page preloaded before hydration hydrates in the same pass as the frame
 * around it (no Suspense boundary left waiting, nothing for a later update to re-render from scratch).
 */
export type Page = { Component: ComponentType; preload: () => Promise<void> }

type Loaded = { default: ComponentType }

function definePage(importPage: () => Promise<ComponentType>, options: { allMessages: boolean }): Page {
  let loaded: Loaded | undefined
  let pending: Promise<Loaded> | undefined
  const load = (): Promise<Loaded> => {
    pending ??= Promise.all([
      importPage(),
      // Every page but the landing page waits for all of its language's text. On the server
      // (prerendering) the text is all there already and there is no document to read the language from.
      options.allMessages && typeof document !== 'undefined' ? ensureAllMessages() : undefined,
    ]).then(([Component]) => {
      loaded = { default: Component }
      return loaded
    })
    return pending
  }
  // A thenable that calls back at once: React's lazy then resolves within the same render.
  const settled = (value: Loaded) =>
    // biome-ignore lint/suspicious/noThenProperty: a thenable is the point: React's lazy reads it
    ({ then: (resolve: (module: Loaded) => void) => resolve(value) }) as unknown as Promise<Loaded>
  const Component = lazy(() => (loaded ? settled(loaded) : load()))
  return {
    Component,
    preload: async () => {
      await load()
    },
  }
}

export const publicPageComponents: Record<PublicPageKey, Page> = {
  landing: definePage(async () => (await import('./routes/landing.tsx')).LandingPage, { allMessages: false }),
  pricing: definePage(async () => (await import('./routes/pricing.tsx')).PricingPage, { allMessages: true }),
  features: definePage(async () => (await import('./routes/features.tsx')).FeaturesPage, {
    allMessages: true,
  }),
  faq: definePage(async () => (await import('./routes/faq.tsx')).FaqPage, { allMessages: true }),
  about: definePage(async () => (await import('./routes/about.tsx')).AboutPage, { allMessages: true }),
  contact: definePage(async () => (await import('./routes/contact.tsx')).ContactPage, { allMessages: true }),
  privacy: definePage(async () => (await import('./routes/privacy.tsx')).PrivacyPage, { allMessages: true }),
  terms: definePage(async () => (await import('./routes/terms.tsx')).TermsPage, { allMessages: true }),
  access: definePage(async () => (await import('./routes/access.tsx')).AccessPage, { allMessages: true }),
  signIn: definePage(async () => (await import('./routes/sign-in.tsx')).SignInPage, { allMessages: true }),
  signUp: definePage(async () => (await import('./routes/sign-up.tsx')).SignUpPage, { allMessages: true }),
  resetPassword: definePage(async () => (await import('./routes/reset-password.tsx')).ResetPasswordPage, {
    allMessages: true,
  }),
  resetPasswordConfirm: definePage(
    async () => (await import('./routes/reset-password-confirm.tsx')).ResetPasswordConfirmPage,
    { allMessages: true },
  ),
}

export const appPageComponents: Record<AppPageKey, Page> = {
  dashboard: definePage(async () => (await import('./routes/dashboard.tsx')).DashboardPage, {
    allMessages: true,
  }),
  create: definePage(async () => (await import('./routes/create.tsx')).CreatePage, { allMessages: true }),
  fashion: definePage(async () => (await import('./routes/fashion.tsx')).FashionPage, { allMessages: true }),
  library: definePage(async () => (await import('./routes/library.tsx')).LibraryPage, { allMessages: true }),
  catalogue: definePage(async () => (await import('./routes/catalogue.tsx')).CataloguePage, {
    allMessages: true,
  }),
  catalogueBatch: definePage(async () => (await import('./routes/catalogue-batch.tsx')).CatalogueBatchPage, {
    allMessages: true,
  }),
  settings: definePage(async () => (await import('./routes/settings.tsx')).SettingsPage, {
    allMessages: true,
  }),
  billing: definePage(async () => (await import('./routes/billing.tsx')).BillingPage, { allMessages: true }),
  billingSuccess: definePage(async () => (await import('./routes/billing-success.tsx')).BillingSuccessPage, {
    allMessages: true,
  }),
}

/**
 * What each page asks the API for as it first renders (beside /api/session, which every page
 * asks): main.tsx starts these with the page's code on a first load, so they arrive together
 * instead of one after the other. A path listed here that the page stops reading is only a
 * wasted request; a test keeps the list true (pages.test.tsx).
 */
export const appPageFirstReads: Partial<Record<AppPageKey, readonly string[]>> = {
  dashboard: ['/api/usage'],
  create: ['/api/usage', '/api/settings'],
  fashion: ['/api/usage', '/api/settings'],
  catalogue: ['/api/usage', '/api/settings'],
  settings: ['/api/settings'],
  billing: ['/api/billing', '/api/usage'],
}
