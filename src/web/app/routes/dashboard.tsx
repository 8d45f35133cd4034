import { type ReactNode, useRef } from 'react'
import { Link } from 'react-router'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import { getPlan } from '#shared/plans.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { TextLink } from '#web/components/ui/text-link.tsx'
import { BetaSessionNotice } from '#web/features/auth/components/beta-session-notice.tsx'
import { LatestGenerations } from '#web/features/generations/components/latest-generations.tsx'
import { getUsage } from '#web/features/usage/api/get-usage.ts'
import { QuotaAlerts } from '#web/features/usage/components/quota-alerts.tsx'
import { QuotaMeter } from '#web/features/usage/components/quota-meter.tsx'
import { StorageMeter } from '#web/features/usage/components/storage-meter.tsx'
import { UsageSkeleton } from '#web/features/usage/components/usage-skeleton.tsx'
import { formatDate } from '#web/lib/format-time.ts'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useSession } from '#web/lib/session.tsx'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'
import { useResource } from '#web/lib/use-resource.ts'

export function DashboardPage() {
  const { t } = useI18n()
  const session = useSession()
  const usage = useResource(getUsage)
  useDocumentTitle(t('app.dashboard.documentTitle'))

  const who =
    session.status === 'signed-in'
      ? session.user.isBeta || !session.user.email
        ? t('app.dashboard.betaAccount')
        : t('app.dashboard.signedInAs', { email: session.user.email })
      : ''

  return (
    <div className="bg-slate-50">
      <Container className="py-8 sm:py-12">
        <BetaSessionNotice />
        <LoadState
          resource={usage}
          loading={<UsageSkeleton label={t('app.dashboard.loading')} />}
          errorTitle={t('app.dashboard.error.title')}
          errorTitleAs="h1"
          retryLabel={t('app.dashboard.error.retry')}
        >
          {(data) => (data.subscription ? <Dashboard usage={data} who={who} /> : <Welcome who={who} />)}
        </LoadState>
      </Container>
    </div>
  )
}

function Welcome(props: { who: string }) {
  const { t } = useI18n()
  return (
    <div className="mx-auto max-w-2xl rounded-3xl border border-slate-200 bg-white px-6 py-12 text-center shadow-sm sm:px-12">
      <p className="text-sm text-slate-600" data-testid="signed-in-as">
        {props.who}
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        {t('app.welcome.title')}
      </h1>
      <p className="mt-4 text-lg text-slate-700">{t('app.welcome.body')}</p>
      <ButtonLink to={href('pricing')} size="lg" className="mt-8">
        {t('app.welcome.viewPlans')}
      </ButtonLink>
      <p className="mt-6 text-sm text-slate-600">{t('app.welcome.note')}</p>
    </div>
  )
}

function Dashboard(props: { usage: UsageResponse; who: string }) {
  const { t, locale, formatNumber } = useI18n()
  const { usage } = props
  const subscription = usage.subscription
  const usageHeadingRef = useRef<HTMLHeadingElement>(null)
  if (!subscription) return null
  const plan = getPlan(subscription.planId)
  const periodEnd = formatDate(locale, subscription.currentPeriodEnd)
  // The quota period is the billing period; the usage view names it (the same on /billing).
  const renewsOn = formatDate(locale, usage.period?.end ?? subscription.currentPeriodEnd)

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t('app.dashboard.title')}</h1>
          <p className="mt-1 text-slate-600" data-testid="signed-in-as">
            {props.who}
          </p>
        </div>
        <section
          aria-labelledby="dashboard-plan-title"
          className="rounded-2xl border border-slate-200 bg-white px-5 py-4 shadow-sm sm:min-w-72"
        >
          <h2
            id="dashboard-plan-title"
            className="text-xs font-semibold tracking-wide text-slate-600 uppercase"
          >
            {t('app.dashboard.yourPlan')}
          </h2>
          <p className="mt-1 text-lg font-semibold text-slate-900" data-testid="dashboard-plan">
            {t('app.dashboard.planName', { plan: plan.name })}
          </p>
          <p className="text-sm text-slate-600" data-testid="dashboard-period">
            {subscription.isTrial
              ? t('app.dashboard.trialUntil', { date: periodEnd })
              : t('app.dashboard.periodEnds', { date: periodEnd })}
          </p>
          <TextLink to={href('billing')} className="mt-2 inline-block text-sm">
            {t('app.dashboard.managePlan')}
          </TextLink>
        </section>
      </div>

      <QuotaAlerts
        images={usage.images}
        videos={usage.videos}
        credits={usage.credits}
        onDismissed={() => usageHeadingRef.current?.focus()}
      />

      <section
        aria-labelledby="dashboard-usage-title"
        className="rounded-3xl bg-brand-950 p-6 text-white shadow-sm sm:p-8"
      >
        <h2
          id="dashboard-usage-title"
          ref={usageHeadingRef}
          tabIndex={-1}
          className="text-lg font-semibold outline-none"
        >
          {t('app.dashboard.usageTitle')}
        </h2>
        <div className="mt-6 grid gap-8 sm:grid-cols-2">
          <QuotaMeter
            resource="images"
            used={usage.images.used}
            quota={usage.images.quota}
            credits={usage.credits.images}
          />
          <QuotaMeter
            resource="videos"
            used={usage.videos.used}
            quota={usage.videos.quota}
            credits={usage.credits.videos}
          />
        </div>
        <div className="mt-8 border-t border-white/15 pt-6">
          <StorageMeter usedBytes={usage.storage.usedBytes} quotaBytes={usage.storage.quotaBytes} />
        </div>
        <p className="mt-6 text-sm text-brand-100" data-testid="usage-renews">
          {t(subscription.isTrial ? 'app.dashboard.usageNoteTrial' : 'app.dashboard.usageNote', {
            date: renewsOn,
          })}
        </p>
      </section>

      <DashboardSection id="dashboard-stats" title={t('app.dashboard.statsTitle')}>
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          <Stat label={t('app.dashboard.stats.images')} testId="stat-images">
            {formatNumber(usage.images.used)}
          </Stat>
          <Stat label={t('app.dashboard.stats.videos')} testId="stat-videos">
            {formatNumber(usage.videos.used)}
          </Stat>
          <Stat label={t('app.dashboard.stats.seo')} testId="stat-seo">
            {t('app.dashboard.stats.unlimited')}
          </Stat>
        </dl>
      </DashboardSection>

      <DashboardSection id="dashboard-actions" title={t('app.dashboard.quickActions.title')}>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <QuickAction to={href('create')} name="create" isPrimary />
          <QuickAction to={href('fashion')} name="fashion" />
          <QuickAction to={href('library')} name="library" />
          <QuickAction to={href('billing')} name="billing" />
        </ul>
      </DashboardSection>

      <LatestGenerations />
    </div>
  )
}

function Stat(props: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">{props.label}</dt>
      <dd
        className="mt-1 text-3xl font-bold tracking-tight text-slate-900 tabular-nums"
        data-testid={props.testId}
      >
        {props.children}
      </dd>
    </div>
  )
}

function QuickAction(props: {
  to: string
  name: 'create' | 'fashion' | 'library' | 'billing'
  isPrimary?: boolean
}) {
  const { t } = useI18n()
  return (
    <li>
      <Link
        to={props.to}
        className={`flex h-full flex-col rounded-2xl border p-5 shadow-sm transition-colors ${
          props.isPrimary
            ? 'border-brand-700 bg-brand-700 text-white hover:bg-brand-800'
            : 'border-slate-200 bg-white text-slate-900 hover:border-brand-300 hover:bg-brand-50'
        }`}
      >
        <span className="font-semibold">{t(`app.dashboard.quickActions.${props.name}.title`)}</span>
        <span className={`mt-1 text-sm ${props.isPrimary ? 'text-brand-100' : 'text-slate-600'}`}>
          {t(`app.dashboard.quickActions.${props.name}.description`)}
        </span>
      </Link>
    </li>
  )
}

/** A titled part of the dashboard under the plan's panel. */
function DashboardSection(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`} className="text-lg font-semibold text-slate-900">
        {props.title}
      </h2>
      {props.children}
    </section>
  )
}
