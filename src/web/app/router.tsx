import { lazy } from 'react'
import { BrowserRouter, Navigate, Route, Routes } from 'react-router'
import { RootLayout } from '#web/components/layout/root-layout.tsx'
import { ensureAllMessages } from '#web/lib/i18n.tsx'
import { RequireSession } from '#web/lib/require-session.tsx'

// Each page is its own chunk, loaded when first visited. Declarative routing keeps the
// router's share of the first download small (see docs/decisions/0004-web-bundle-budget.md).
// Every page but the landing page also waits for all of its language's text (ensureAllMessages).
const LandingPage = lazy(async () => ({ default: (await import('./routes/landing.tsx')).LandingPage }))
const PricingPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/pricing.tsx')).PricingPage }
})
const ContactPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/contact.tsx')).ContactPage }
})
const FeaturesPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/features.tsx')).FeaturesPage }
})
const FaqPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/faq.tsx')).FaqPage }
})
const AboutPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/about.tsx')).AboutPage }
})
const PrivacyPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/privacy.tsx')).PrivacyPage }
})
const TermsPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/terms.tsx')).TermsPage }
})
const AccessPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/access.tsx')).AccessPage }
})
const SignInPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/sign-in.tsx')).SignInPage }
})
const SignUpPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/sign-up.tsx')).SignUpPage }
})
const ResetPasswordPage = lazy(async () => {
  await ensureAllMessages()
  return {
    default: (await import('./routes/reset-password.tsx')).ResetPasswordPage,
  }
})
const ResetPasswordConfirmPage = lazy(async () => {
  await ensureAllMessages()
  return {
    default: (await import('./routes/reset-password-confirm.tsx')).ResetPasswordConfirmPage,
  }
})
const DashboardPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/dashboard.tsx')).DashboardPage }
})
const CreatePage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/create.tsx')).CreatePage }
})
const FashionPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/fashion.tsx')).FashionPage }
})
const LibraryPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/library.tsx')).LibraryPage }
})
const CataloguePage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/catalogue.tsx')).CataloguePage }
})
const CatalogueBatchPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/catalogue-batch.tsx')).CatalogueBatchPage }
})
const SettingsPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/settings.tsx')).SettingsPage }
})
const BillingPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/billing.tsx')).BillingPage }
})
const BillingSuccessPage = lazy(async () => {
  await ensureAllMessages()
  return { default: (await import('./routes/billing-success.tsx')).BillingSuccessPage }
})

function guarded(element: React.ReactNode) {
  return <RequireSession>{element}</RequireSession>
}

/** Every route of the app. Unknown paths go to the landing page. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<LandingPage />} />
        <Route path="pricing" element={<PricingPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="features" element={<FeaturesPage />} />
        <Route path="faq" element={<FaqPage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="access" element={<AccessPage />} />
        <Route path="auth/signin" element={<SignInPage />} />
        <Route path="auth/signup" element={<SignUpPage />} />
        <Route path="auth/reset-password" element={<ResetPasswordPage />} />
        <Route path="auth/reset-password/confirm" element={<ResetPasswordConfirmPage />} />
        <Route path="app" element={guarded(<DashboardPage />)} />
        <Route path="app/create" element={guarded(<CreatePage />)} />
        <Route path="app/fashion" element={guarded(<FashionPage />)} />
        <Route path="app/library" element={guarded(<LibraryPage />)} />
        <Route path="app/catalogue" element={guarded(<CataloguePage />)} />
        <Route path="app/catalogue/:id" element={guarded(<CatalogueBatchPage />)} />
        <Route path="settings" element={guarded(<SettingsPage />)} />
        <Route path="billing" element={guarded(<BillingPage />)} />
        <Route path="billing/success" element={guarded(<BillingSuccessPage />)} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  )
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  )
}
