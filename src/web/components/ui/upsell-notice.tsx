import { href } from '#web/lib/href.ts'
import { TextLink } from './text-link.tsx'

/**
 * What a plan without a feature would get, and the way to a plan that has it (the billing page);
 * no button that cannot work.
 */
export function UpsellNotice(props: { title: string; body: string; points: string[]; upgradeLabel: string }) {
  return (
    <div className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-slate-900 sm:p-5">
      <h4 className="font-semibold">{props.title}</h4>
      <p className="mt-2">{props.body}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {props.points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
      <TextLink to={href('billing')} tone="notice" className="mt-3 inline-block">
        {props.upgradeLabel}
      </TextLink>
    </div>
  )
}
