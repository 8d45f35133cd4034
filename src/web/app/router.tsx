import { lazy } from 'react'
import { BrowserRouter, Navigate, Route, Routes } from 'react-router'
import { RootLayout } from '../components/layout/root-layout.tsx'

// Each page is its own chunk, loaded when first visited. Declarative routing keeps the
// router's share of the first download small (see docs/decisions/0004-web-bundle-budget.md).
const LandingPage = lazy(async () => ({ default: (await import('./routes/landing.tsx')).LandingPage }))
const PricingPage = lazy(async () => ({ default: (await import('./routes/pricing.tsx')).PricingPage }))
const ContactPage = lazy(async () => ({ default: (await import('./routes/contact.tsx')).ContactPage }))
const FeaturesPage = lazy(async () => ({ default: (await import('./routes/features.tsx')).FeaturesPage }))
const FaqPage = lazy(async () => ({ default: (await import('./routes/faq.tsx')).FaqPage }))
const AboutPage = lazy(async () => ({ default: (await import('./routes/about.tsx')).AboutPage }))
const PrivacyPage = lazy(async () => ({ default: (await import('./routes/privacy.tsx')).PrivacyPage }))
const TermsPage = lazy(async () => ({ default: (await import('./routes/terms.tsx')).TermsPage }))

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
