import type { ReactNode } from 'react'
import type { Plan } from '#shared/plans.ts'
import { Button, ButtonLink } from '#web/components/ui/button.tsx'
import { TickIcon } from '#web/components/ui/icons.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'

/** One line of what a plan includes, ticked. */
function Included(props: { testId?: string; children: ReactNode }) {
  return (
    <li className="flex gap-2" data-testid={props.testId}>
      <TickIcon className="mt-0.5 size-5 shrink-0 text-emerald-600" />
      {props.children}
    </li>
  )
}

/** A label on the card's top edge, at its left or right corner. */
function CornerLabel(props: { className: string; children: ReactNode }) {
  return (
    <p
      className={`absolute -top-3 rounded-full px-3 py-1 text-xs font-semibold tracking-wide uppercase ${props.className}`}
    >
      {props.children}
    </p>
  )
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
 * button links to `ctaTo` (sign-up); with `choice` (signed in) it chooses the plan or reads "Current plan".
 * `isSelected` highlights the plan picked before sign-up.
 */
export function PlanCard(props: {
  plan: Plan
  /** Where the signed-out button goes; by default sign-up with this plan chosen. */
  ctaTo?: string
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
        <CornerLabel className="right-6 bg-accent-400 text-brand-950">
          {t('billing.plans.selected')}
        </CornerLabel>
      ) : null}
      {plan.isMostPopular ? (
        <CornerLabel className="left-6 bg-brand-700 text-white">{t('plans.mostPopular')}</CornerLabel>
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
        {(['images', 'videos'] as const).map((resource) => (
          <Included key={resource} testId={`plan-${resource}`}>
            <span className="font-medium text-slate-900">
              {t(`plans.${resource}PerMonth`, {
                count: resource === 'images' ? plan.imageQuota : plan.videoQuota,
              })}
            </span>
          </Included>
        ))}
        <Included>{t('plans.seoUnlimited')}</Included>
        {plan.features.map((feature) => (
          <Included key={feature}>{t(`plans.features.${feature}`)}</Included>
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
          to={props.ctaTo ?? `${href('signUp')}?plan=${plan.id}`}
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
