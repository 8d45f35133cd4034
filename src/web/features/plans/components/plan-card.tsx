import type { Plan } from '#shared/plans.ts'
import { Button, ButtonLink } from '#web/components/ui/button.tsx'
import { TickIcon } from '#web/components/ui/icons.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

function CheckIcon() {
  return <TickIcon className="mt-0.5 size-5 shrink-0 text-emerald-600" />
}

/** What the card's button does for a signed-in user: choose the plan, or show it is the current one. */
export type PlanCardChoice = {
  isCurrent: boolean
  onChoose: () => void
  /** While the current plan is still loading, or a choice is being made. */
  isDisabled?: boolean
  /** False when the operator sets plans: no button that could only fail. */
  canChoose?: boolean
}

/**
 * One plan from the catalogue: price, quotas, features and the way to start. Signed out, the
 * button links to `ctaTo`; with `choice` (signed in) it chooses the plan or reads "Current plan".
 * `isSelected` highlights the plan picked before sign-up.
 */
export function PlanCard(props: {
  plan: Plan
  ctaTo: string
  headingLevel?: 'h2' | 'h3'
  choice?: PlanCardChoice
  isSelected?: boolean
}) {
  const { plan, choice } = props
  const { t, formatUsd } = useI18n()
  const Heading = props.headingLevel ?? 'h2'
  const titleId = `plan-${plan.id}-title`
  return (
    <article
      aria-labelledby={titleId}
      data-plan={plan.id}
      data-selected={props.isSelected ? 'true' : undefined}
      className={`relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm sm:p-8 ${
        props.isSelected
          ? 'border-accent-500 ring-4 ring-accent-400'
          : plan.isMostPopular
            ? 'border-brand-600 ring-2 ring-brand-600'
            : 'border-slate-200'
      }`}
    >
      {props.isSelected ? (
        <p className="absolute -top-3 right-6 rounded-full bg-accent-400 px-3 py-1 text-xs font-semibold tracking-wide text-brand-950 uppercase">
          {t('billing.plans.selected')}
        </p>
      ) : null}
      {plan.isMostPopular ? (
        <p className="absolute -top-3 left-6 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold tracking-wide text-white uppercase">
          {t('plans.mostPopular')}
        </p>
      ) : null}
      <Heading id={titleId} className="text-lg font-semibold text-slate-900">
        {plan.name}
      </Heading>
      <p className="mt-1 text-sm text-slate-600">{t(`plans.blurb.${plan.id}`)}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight text-slate-900" data-testid="plan-price">
          {formatUsd(plan.priceMonthlyUsd)}
        </span>
        <span className="text-sm text-slate-600">{t('plans.perMonth')}</span>
      </p>
      <ul className="mt-6 mb-8 flex-1 space-y-3 text-sm text-slate-700">
        <li className="flex gap-2" data-testid="plan-images">
          <CheckIcon />
          <span className="font-medium text-slate-900">
            {t('plans.imagesPerMonth', { count: plan.imageQuota })}
          </span>
        </li>
        <li className="flex gap-2" data-testid="plan-videos">
          <CheckIcon />
          <span className="font-medium text-slate-900">
            {t('plans.videosPerMonth', { count: plan.videoQuota })}
          </span>
        </li>
        <li className="flex gap-2">
          <CheckIcon />
          {t('plans.seoUnlimited')}
        </li>
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <CheckIcon />
            {t(`plans.features.${feature}`)}
          </li>
        ))}
      </ul>
      {choice ? (
        choice.isCurrent ? (
          <Button variant="secondary" className="w-full" disabled>
            {t('billing.plans.current')}
          </Button>
        ) : choice.canChoose === false ? null : (
          <Button
            variant={plan.isMostPopular || props.isSelected ? 'primary' : 'secondary'}
            className="w-full"
            disabled={choice.isDisabled}
            onClick={choice.onChoose}
          >
            {t('billing.plans.choose', { plan: plan.name })}
          </Button>
        )
      ) : (
        <ButtonLink
          to={props.ctaTo}
          variant={plan.isMostPopular ? 'primary' : 'secondary'}
          className="w-full"
          aria-label={`${t('plans.getStarted')}: ${plan.name}`}
        >
          {t('plans.getStarted')}
        </ButtonLink>
      )}
    </article>
  )
}
