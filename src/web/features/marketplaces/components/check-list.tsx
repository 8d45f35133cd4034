import type { ReactNode } from 'react'
import type { CheckResult, CheckStatus, FixAction } from '#shared/marketplaces/check.ts'
import {
  CheckCircleIcon,
  CrossCircleIcon,
  DashCircleIcon,
  EyeIcon,
  WarningIcon,
} from '#web/components/ui/icons.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/** Failures first, then what to look at, then what passes; unpublished rules last. */
const statusOrder: Record<CheckStatus, number> = {
  fail: 0,
  warn: 1,
  'check-by-eye': 2,
  pass: 3,
  'not-published': 4,
}

const statusStyles: Record<CheckStatus, { badge: string; icon: string }> = {
  pass: { badge: 'bg-emerald-50 text-emerald-900 ring-emerald-200', icon: 'text-emerald-700' },
  warn: { badge: 'bg-amber-50 text-amber-900 ring-amber-200', icon: 'text-amber-700' },
  fail: { badge: 'bg-red-50 text-red-900 ring-red-200', icon: 'text-red-700' },
  'not-published': { badge: 'bg-slate-100 text-slate-700 ring-slate-200', icon: 'text-slate-500' },
  'check-by-eye': { badge: 'bg-sky-50 text-sky-900 ring-sky-200', icon: 'text-sky-700' },
}

export function sortResults(results: readonly CheckResult[]): CheckResult[] {
  return [...results].sort((a, b) => statusOrder[a.status] - statusOrder[b.status])
}

/**
 * One profile's checklist: each rule with its status in words (the icon only repeats it), its
 * one-line reason, where the rule comes from, and the fix when there is one. `renderFix` draws
 * the fix (a download link, a button, or advice). Rules the marketplace publishes nothing on are
 * not rows of their own: they are named together in one quiet line at the end.
 */
export function CheckList(props: {
  label: string
  /** The marketplace's name, for the line of rules it does not publish. */
  marketplace: string
  results: readonly CheckResult[]
  renderFix: (fix: FixAction, result: CheckResult) => ReactNode
}) {
  const { t } = useI18n()
  const sorted = sortResults(props.results)
  const judged = sorted.filter((result) => result.status !== 'not-published')
  const unpublished = sorted.filter((result) => result.status === 'not-published')
  return (
    <ul aria-label={props.label} className="divide-y divide-slate-200" data-testid="marketplace-checklist">
      {judged.map((result) => {
        const styles = statusStyles[result.status]
        return (
          <li
            key={result.ruleId}
            className="flex gap-3 py-3"
            data-testid="marketplace-rule"
            data-rule={result.ruleId}
            data-status={result.status}
          >
            <StatusIcon status={result.status} className={`mt-0.5 size-5 shrink-0 ${styles.icon}`} />
            <div className="min-w-0 flex-1 space-y-1 text-sm">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-semibold text-slate-900">
                  {t(`marketplaces.rules.${result.ruleId}`)}
                </span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${styles.badge}`}
                  data-testid="rule-status"
                >
                  {t(`marketplaces.status.${result.status}`)}
                </span>
              </p>
              <p className="text-slate-700" data-testid="rule-reason">
                {t(result.reason.key, result.reason.values)}
              </p>
              <RuleSourceLine source={result.source} />
              {result.fix ? <div>{props.renderFix(result.fix, result)}</div> : null}
            </div>
          </li>
        )
      })}
      {unpublished.length > 0 ? (
        <li
          className="flex gap-3 py-3 text-xs text-slate-600"
          data-testid="marketplace-unpublished"
          data-rules={unpublished.map((result) => result.ruleId).join(' ')}
        >
          <StatusIcon
            status="not-published"
            className={`size-4 shrink-0 ${statusStyles['not-published'].icon}`}
          />
          <p className="min-w-0 flex-1">
            {t('marketplaces.panel.unpublished', {
              marketplace: props.marketplace,
              rules: unpublished.map((result) => t(`marketplaces.rules.${result.ruleId}`)).join(', '),
            })}
          </p>
        </li>
      ) : null}
    </ul>
  )
}

function RuleSourceLine(props: { source: CheckResult['source'] }) {
  const { t } = useI18n()
  const { source } = props
  if (!source) return null
  if ('vitrin' in source) {
    return (
      <p className="text-xs text-slate-600" data-testid="rule-source">
        {t('marketplaces.panel.sourcePrefix')} {t('marketplaces.confidence.vitrin')}
      </p>
    )
  }
  return (
    <p className="text-xs text-slate-600" data-testid="rule-source">
      {t('marketplaces.panel.sourcePrefix')}{' '}
      <a
        href={source.url}
        target="_blank"
        rel="noopener noreferrer"
        className="break-words underline underline-offset-2 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        {t('marketplaces.source.dated', {
          confidence: t(`marketplaces.confidence.${source.confidence}`),
          date: source.date,
        })}
        <span className="sr-only"> {t('marketplaces.panel.opensInNewTab')}</span>
      </a>
    </p>
  )
}

function StatusIcon(props: { status: CheckStatus; className: string }) {
  const Icon = statusIcons[props.status] ?? DashCircleIcon
  return <Icon className={props.className} strokeWidth={2} />
}

const statusIcons: Partial<Record<CheckStatus, typeof CheckCircleIcon>> = {
  pass: CheckCircleIcon,
  fail: CrossCircleIcon,
  warn: WarningIcon,
  'check-by-eye': EyeIcon,
}
