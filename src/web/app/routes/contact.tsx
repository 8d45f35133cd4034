import { useEffect, useState } from 'react'
import type { PublicConfig } from '#shared/contracts/public-config.ts'
import { Container } from '#web/components/ui/container.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { ContactForm } from '#web/features/contact/components/contact-form.tsx'
import { apiRequest } from '#web/lib/api-client.ts'
import { useI18n } from '#web/lib/i18n.tsx'

const professionalSetupUsd = 2500

function InfoCard(props: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
      <h2 className="font-semibold text-slate-900">{props.title}</h2>
      <div className="mt-3 space-y-2 text-sm text-slate-700">{props.children}</div>
    </section>
  )
}

export function ContactPage() {
  const { t, formatUsd } = useI18n()
  const [supportEmail, setSupportEmail] = useState<string | null>(null)

  useEffect(() => {
    let isCurrent = true
    apiRequest<PublicConfig>('/api/public-config')
      .then((config) => {
        if (isCurrent) setSupportEmail(config.supportEmail)
      })
      .catch(() => {
        // The address is a convenience; the form works without it.
      })
    return () => {
      isCurrent = false
    }
  }, [])

  return (
    <>
      <PageHeader title={t('contact.title')} subtitle={t('contact.subtitle')} />
      <Container className="grid gap-8 py-12 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <ContactForm />
        </div>
        <aside className="space-y-6">
          <InfoCard title={t('contact.details.title')}>
            <p>
              <span className="font-medium text-slate-900">{t('contact.details.email')}: </span>
              {supportEmail ? (
                <a className="text-brand-700 hover:underline" href={`mailto:${supportEmail}`}>
                  {supportEmail}
                </a>
              ) : (
                <span className="inline-block h-4 w-40 animate-pulse rounded bg-slate-200 align-middle" />
              )}
            </p>
            <p>
              <span className="font-medium text-slate-900">{t('contact.details.chat')}: </span>
              {t('contact.details.chatHours')}
            </p>
          </InfoCard>
          <InfoCard title={t('contact.enterprise.title')}>
            <p>
              <span className="font-medium text-slate-900">{t('contact.enterprise.setup')}</span> ·{' '}
              <span data-testid="setup-price">
                {t('contact.enterprise.setupPrice', { price: formatUsd(professionalSetupUsd) })}
              </span>
            </p>
            <p>{t('contact.enterprise.setupBody')}</p>
            <p>{t('contact.enterprise.volume')}</p>
          </InfoCard>
          <InfoCard title={t('contact.response.title')}>
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2">
              <dt>{t('contact.response.general')}</dt>
              <dd className="font-medium text-slate-900">{t('contact.response.generalTime')}</dd>
              <dt>{t('contact.response.enterprise')}</dt>
              <dd className="font-medium text-slate-900">{t('contact.response.enterpriseTime')}</dd>
              <dt>{t('contact.response.setup')}</dt>
              <dd className="font-medium text-slate-900">{t('contact.response.setupTime')}</dd>
            </dl>
          </InfoCard>
        </aside>
      </Container>
    </>
  )
}
