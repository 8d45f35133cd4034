import type { ReactNode } from 'react'
import type { TKey } from '#shared/i18n/messages.ts'
import { getPlan, plans } from '#shared/plans.ts'
import { Badge } from '#web/components/ui/badge.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { OfferIcon, type OfferIconName, TickIcon } from '#web/components/ui/icons.tsx'
import { OnDarkLinks } from '#web/components/ui/on-dark-links.tsx'
import { PageIntro } from '#web/components/ui/page-header.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'

type FeatureId = OfferIconName

const features: { id: FeatureId; points: TKey[] }[] = [
  {
    id: 'image',
    points: [
      'pages.features.image.points.upload',
      'pages.features.image.points.ratios',
      'pages.features.image.points.prompt',
    ],
  },
  {
    id: 'video',
    points: [
      'pages.features.video.points.specs',
      'pages.features.video.points.formats',
      'pages.features.video.points.background',
    ],
  },
  {
    id: 'seo',
    points: [
      'pages.features.seo.points.title',
      'pages.features.seo.points.meta',
      'pages.features.seo.points.features',
      'pages.features.seo.points.keywords',
    ],
  },
  {
    id: 'fashion',
    points: [
      'pages.features.fashion.points.styles',
      'pages.features.fashion.points.ratio',
      'pages.features.fashion.points.video',
    ],
  },
  {
    id: 'library',
    points: [
      'pages.features.library.points.filter',
      'pages.features.library.points.save',
      'pages.features.library.points.private',
    ],
  },
  {
    id: 'plans',
    points: [
      'pages.features.plans.points.reset',
      'pages.features.plans.points.failed',
      'pages.features.plans.points.language',
      'pages.features.plans.points.beta',
    ],
  },
]

const scenes = ['white', 'marble', 'wood', 'black', 'outdoor', 'velvet', 'glass', 'concrete'] as const

function CheckIcon() {
  return <TickIcon className="mt-1 size-5 shrink-0 text-brand-600" />
}

function CheckList(props: { items: string[] }) {
  return (
    <ul className="space-y-3">
      {props.items.map((item) => (
        <li key={item} className="flex gap-3">
          <CheckIcon />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  )
}

export function FeaturesPage() {
  const { t } = useI18n()
  const vars = { plan: getPlan('growth').name }

  /** What a feature's card shows besides its list of points. */
  const extra = (id: FeatureId): ReactNode => {
    if (id === 'image') {
      return (
        <div className="mt-6 border-t border-slate-200 pt-6">
          <h3 className="font-semibold text-slate-900">{t('pages.features.image.scenesTitle')}</h3>
          <ul className="mt-3 flex flex-wrap gap-2">
            {scenes.map((scene) => (
              <li
                key={scene}
                className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800"
              >
                {t(`pages.features.image.scenes.${scene}`)}
              </li>
            ))}
          </ul>
        </div>
      )
    }
    if (id === 'seo') {
      return (
        <p className="mt-6 border-t border-slate-200 pt-6 text-slate-600">{t('pages.features.seo.note')}</p>
      )
    }
    return null
  }

  return (
    <>
      <PageIntro keys="pages.features">
        <div className="space-y-12 sm:space-y-16">
          {features.map((feature) => (
            <section
              key={feature.id}
              id={feature.id}
              aria-labelledby={`feature-${feature.id}-title`}
              className="grid scroll-mt-24 gap-6 lg:grid-cols-12 lg:gap-12"
            >
              <div className="lg:col-span-5">
                <OfferIcon
                  name={feature.id}
                  className="size-11 rounded-xl bg-brand-50 p-2.5 text-brand-700"
                />
                <h2
                  id={`feature-${feature.id}-title`}
                  className="mt-4 text-2xl font-bold tracking-tight text-balance text-slate-900"
                >
                  {t(`pages.features.${feature.id}.title`)}
                </h2>
                <p className="mt-3 text-lg leading-8 text-slate-600">
                  {t(`pages.features.${feature.id}.body`)}
                </p>
              </div>
              <div className="rounded-2xl border border-slate-200 bg-white p-6 text-slate-700 shadow-sm sm:p-8 lg:col-span-7">
                {feature.id === 'plans' ? (
                  <ul className="mb-6 grid gap-3 border-b border-slate-200 pb-6 sm:grid-cols-3">
                    {plans.map((plan) => (
                      <li
                        key={plan.id}
                        className={`rounded-xl px-4 py-3 text-sm ${
                          plan.isMostPopular ? 'bg-brand-50 ring-1 ring-brand-600' : 'bg-slate-50'
                        }`}
                      >
                        <p className="font-semibold text-slate-900">
                          {plan.name}
                          {plan.isMostPopular ? (
                            <Badge tone="strong" className="ml-2 inline-block whitespace-nowrap">
                              {t('plans.mostPopular')}
                            </Badge>
                          ) : null}
                        </p>
                        <p className="mt-1 text-slate-700">
                          {t('pages.features.plans.quota', {
                            images: plan.imageQuota,
                            videos: plan.videoQuota,
                          })}
                        </p>
                      </li>
                    ))}
                  </ul>
                ) : null}
                <CheckList items={feature.points.map((key) => t(key, vars))} />
                {extra(feature.id)}
              </div>
            </section>
          ))}
        </div>
      </PageIntro>

      <Container className="pb-16 sm:pb-24">
        <section
          aria-labelledby="features-cta-title"
          className="rounded-2xl bg-brand-950 px-6 py-12 text-center text-white sm:px-12 sm:py-16"
        >
          <h2 id="features-cta-title" className="text-2xl font-bold tracking-tight text-balance sm:text-3xl">
            {t('pages.features.cta.title')}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-brand-100">{t('pages.features.cta.body')}</p>
          <OnDarkLinks
            className="mt-8 flex flex-col justify-center gap-3 sm:flex-row"
            main={{ to: `${href('access')}?next=${href('create')}`, label: t('pages.features.cta.start') }}
            other={{ to: href('pricing'), label: t('pages.features.cta.pricing') }}
          />
        </section>
      </Container>
    </>
  )
}
