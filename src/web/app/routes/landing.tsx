import { type ReactNode, useEffect } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { plans } from '#shared/plans.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { OfferIcon } from '#web/components/ui/icons.tsx'
import { OnDarkLinks } from '#web/components/ui/on-dark-links.tsx'
import { PlanCard } from '#web/features/plans/components/plan-card.tsx'
import { href } from '#web/lib/href.ts'
import { ensureAllMessages, useI18n } from '#web/lib/i18n.tsx'

/** A stylised drawing of the idea (a plain shot becoming a styled scene); not a generated result. */
function HeroIllustration() {
  return (
    <svg aria-hidden="true" viewBox="0 0 480 360" className="h-auto w-full drop-shadow-xl">
      <defs>
        <linearGradient id="scene" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fef3c7" />
          <stop offset="1" stopColor="#fde68a" />
        </linearGradient>
        <clipPath id="scene-clip">
          <rect x="272" y="0" width="208" height="360" rx="18" />
        </clipPath>
        <linearGradient id="bottle" x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#4338ca" />
          <stop offset="1" stopColor="#6366f1" />
        </linearGradient>
      </defs>
      <rect x="0" y="40" width="200" height="260" rx="16" fill="#f1f5f9" stroke="#cbd5e1" />
      <rect x="78" y="120" width="44" height="110" rx="10" fill="url(#bottle)" />
      <rect x="90" y="100" width="20" height="24" rx="4" fill="#1e1b4b" />
      <path d="M212 170h44" stroke="#94a3b8" strokeWidth="4" strokeLinecap="round" />
      <path d="M248 160l12 10-12 10" fill="none" stroke="#94a3b8" strokeWidth="4" strokeLinecap="round" />
      <g clipPath="url(#scene-clip)">
        <rect x="272" y="0" width="208" height="360" fill="url(#scene)" />
        <rect x="272" y="250" width="208" height="110" fill="#e7e5e4" />
        <path d="M272 250h208" stroke="#d6d3d1" strokeWidth="2" />
      </g>
      <ellipse cx="376" cy="262" rx="48" ry="8" fill="#0f172a" opacity="0.18" />
      <rect x="350" y="130" width="52" height="130" rx="12" fill="url(#bottle)" />
      <rect x="364" y="106" width="24" height="28" rx="5" fill="#1e1b4b" />
      <circle cx="440" cy="60" r="22" fill="#fbbf24" opacity="0.7" />
    </svg>
  )
}

const outputs = ['image', 'video', 'seo', 'fashion'] as const

const steps: { n: number; title: TKey; body: TKey }[] = [
  { n: 1, title: 'landing.how.upload.title', body: 'landing.how.upload.body' },
  { n: 2, title: 'landing.how.choose.title', body: 'landing.how.choose.body' },
  { n: 3, title: 'landing.how.publish.title', body: 'landing.how.publish.body' },
]

/** A band of the landing page: a centred h2 over its content, the section named by the heading. */
function LandingSection(props: { id: string; title: string; className?: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={`${props.id}-title`}
      className={props.className ? `${props.className} py-16 sm:py-24` : 'py-16 sm:py-24'}
    >
      <Container>
        <h2 id={`${props.id}-title`} className="text-center text-3xl font-bold tracking-tight text-slate-900">
          {props.title}
        </h2>
        {props.children}
      </Container>
    </section>
  )
}

export function LandingPage() {
  const { t, locale } = useI18n()
  // Once the landing page is up, fetch the other pages' text so the next click is instant.
  useEffect(() => {
    void ensureAllMessages(locale)
  }, [locale])
  return (
    <>
      <section className="relative overflow-hidden bg-brand-950 text-white">
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(99,102,241,0.45),transparent_60%)]"
        />
        <Container className="relative grid items-center gap-12 py-16 sm:py-24 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold text-accent-300">{t('landing.eyebrow')}</p>
            <h1 className="mt-4 text-4xl font-bold tracking-tight text-balance sm:text-5xl xl:text-6xl">
              {t('landing.title')}
            </h1>
            <p className="mt-6 max-w-xl text-lg text-brand-100">{t('landing.subtitle')}</p>
            <OnDarkLinks
              className="mt-10 flex flex-col gap-3 sm:flex-row sm:flex-wrap [&>a]:whitespace-nowrap"
              main={{ to: `${href('access')}?next=${href('create')}`, label: t('landing.ctaProduct') }}
              other={{ to: `${href('access')}?next=${href('fashion')}`, label: t('landing.ctaFashion') }}
            />
          </div>
          <div className="mx-auto w-full max-w-md lg:max-w-none">
            <HeroIllustration />
          </div>
        </Container>
      </section>

      <LandingSection id="outputs" title={t('landing.outputs.title')}>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {outputs.map((output) => (
            <li key={output} className="rounded-2xl border border-slate-200 p-6">
              <OfferIcon name={output} className="size-10 rounded-lg bg-brand-50 p-2 text-brand-700" />
              <h3 className="mt-4 font-semibold text-slate-900">{t(`landing.outputs.${output}.title`)}</h3>
              <p className="mt-2 text-sm text-slate-600">{t(`landing.outputs.${output}.body`)}</p>
            </li>
          ))}
        </ul>
      </LandingSection>

      <LandingSection id="how" className="bg-slate-50" title={t('landing.how.title')}>
        <ol className="mt-12 grid gap-8 md:grid-cols-3">
          {steps.map((step) => (
            <li key={step.n} className="relative rounded-2xl bg-white p-6 shadow-sm">
              <p className="text-sm font-semibold text-brand-700">{t('landing.how.step', { n: step.n })}</p>
              <h3 className="mt-2 text-lg font-semibold text-slate-900">{t(step.title)}</h3>
              <p className="mt-2 text-slate-600">{t(step.body)}</p>
            </li>
          ))}
        </ol>
      </LandingSection>

      <LandingSection id="teaser" title={t('pricing.teaserTitle')}>
        <div className="mt-12 grid gap-8 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} headingLevel="h3" />
          ))}
        </div>
        <p className="mt-10 text-center">
          <ButtonLink to={href('pricing')} variant="secondary">
            {t('pricing.teaserCta')}
          </ButtonLink>
        </p>
      </LandingSection>
    </>
  )
}
