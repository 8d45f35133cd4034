import type { BatchRowState, BatchStatus } from '#shared/contracts/catalogue.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import { CheckIcon, CrossIcon, DashIcon } from '#web/components/ui/icons.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

type Shape = 'pending' | 'spinning' | 'check' | 'cross' | 'dash'

const badgeClass =
  'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset'

/** A shape besides the colour, so a state is never told by colour alone. */
function BadgeShape(props: { shape: Shape }) {
  if (props.shape === 'pending' || props.shape === 'spinning') {
    return (
      <span
        aria-hidden="true"
        className={`inline-block size-2.5 rounded-full border-2 border-current ${
          props.shape === 'spinning' ? 'animate-spin border-t-transparent' : 'opacity-60'
        }`}
      />
    )
  }
  if (props.shape === 'check') return <CheckIcon className="size-3" />
  if (props.shape === 'cross') return <CrossIcon className="size-3" />
  return <DashIcon className="size-3" />
}

type Look = { tone: string; shape: Shape }

// The looks a batch and its rows share: the same colour and shape say the same thing in both.
const waiting: Look = { tone: 'bg-slate-100 text-slate-800 ring-slate-300', shape: 'pending' }
const running: Look = { tone: 'bg-brand-50 text-brand-900 ring-brand-200', shape: 'spinning' }
const done: Look = { tone: 'bg-emerald-50 text-emerald-900 ring-emerald-200', shape: 'check' }
const canceled: Look = { tone: 'bg-slate-100 text-slate-700 ring-slate-300', shape: 'dash' }

const batchLooks: Record<BatchStatus, Look> = {
  draft: { tone: 'bg-amber-50 text-amber-900 ring-amber-200', shape: 'pending' },
  running,
  finished: done,
  canceled,
}

const rowLooks: Record<BatchRowState, Look> = {
  queued: waiting,
  running,
  done,
  failed: { tone: 'bg-red-50 text-red-900 ring-red-200', shape: 'cross' },
  canceled,
}

/** What each badge shows: its looks, its message group, its test id and the data attribute naming the state. */
const badgeKinds = {
  batch: {
    looks: batchLooks,
    messages: 'catalogue.batchStatus',
    testId: 'batch-status',
    attribute: 'data-status',
  },
  row: { looks: rowLooks, messages: 'catalogue.rowState', testId: 'row-state', attribute: 'data-state' },
} as const

/** A batch's state in a word: not started, running, finished, canceled. */
export function BatchStatusBadge(props: { status: BatchStatus }) {
  return <Badge kind="batch" state={props.status} />
}

/** A product row's state in a word. */
export function RowStateBadge(props: { state: BatchRowState }) {
  return <Badge kind="row" state={props.state} />
}

function Badge<Kind extends keyof typeof badgeKinds>(props: {
  kind: Kind
  state: keyof (typeof badgeKinds)[Kind]['looks'] & string
}) {
  const { t } = useI18n()
  const kind = badgeKinds[props.kind]
  const look = (kind.looks as Record<string, Look>)[props.state] as Look
  return (
    <span
      className={`${badgeClass} ${look.tone}`}
      data-testid={kind.testId}
      {...{ [kind.attribute]: props.state }}
    >
      <BadgeShape shape={look.shape} />
      {t(`${kind.messages}.${props.state}` as TKey)}
    </span>
  )
}
