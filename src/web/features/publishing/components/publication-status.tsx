import { useEffect, useId, useState } from 'react'
import type {
  AppliedFix,
  MarketplaceCategory,
  PublicationItemView,
  PublicationView,
  ResubmitResponse,
} from '#shared/contracts/publishing.ts'
import { isErrorCode } from '#shared/errors.ts'
import { type PublishFix, publishFixes, publishFixMessageKeys } from '#shared/publishing/rejections.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useResource } from '#web/lib/use-resource.ts'
import { getPublication } from '../api/publishing-api.ts'
import { useFocusAfterRender } from '../hooks/use-focus-after-render.ts'
import { PublicationItems, StatusCounts } from './publication-items.tsx'
import { ResubmitDialog } from './resubmit-dialog.tsx'

/** How often a publication under way is read again. */
export const followMs = 2000

export function isFinalPublication(publication: PublicationView): boolean {
  return publication.status === 'done' || publication.status === 'failed'
}

function isPublishFix(name: string): name is PublishFix {
  return (publishFixes as readonly string[]).includes(name)
}

/**
 * A publication followed until every product is final: its status, each reason with its fix, and
 * Fix and resubmit for one refused product or all of them. A resubmission is followed here in
 * place of the publication it fixes, under the list of what was fixed in each product.
 */
export function PublicationStatus(props: {
  id: string
  /** The publication as the screen already has it: shown at once, and not read again when final. */
  initial?: PublicationView | undefined
  /** The category it was published in, when the screen knows it (asked again otherwise). */
  category?: MarketplaceCategory | null | undefined
  onAgain?: (() => void) | undefined
  onResubmitted?: ((response: ResubmitResponse) => void) | undefined
}) {
  const { t } = useI18n()
  const id = useId()
  const [followed, setFollowed] = useState<{ id: string; initial: PublicationView | undefined }>({
    id: props.id,
    initial: props.initial,
  })
  const [applied, setApplied] = useState<AppliedFix[] | null>(null)
  const [fixing, setFixing] = useState<{ items: PublicationItemView[]; isAll: boolean } | null>(null)
  // After a resubmission the button that opened the dialog may be gone: focus goes to what was fixed.
  const [appliedRef, focusApplied] = useFocusAfterRender<HTMLHeadingElement>()
  const seed = followed.initial
  const publication = useResource((signal) => getPublication(followed.id, signal), {
    key: followed.id,
    isEnabled: !(seed && isFinalPublication(seed)),
  })
  const latest = publication.status === 'ready' ? publication.data.publication : (seed ?? null)
  const isFinal = latest ? isFinalPublication(latest) : false
  const { reload } = publication
  // Read again while it is under way (a reload keeps the last answer shown).
  useEffect(() => {
    if (!latest || isFinal) return
    const timer = setTimeout(reload, followMs)
    return () => clearTimeout(timer)
  }, [latest, isFinal, reload])

  function handleResubmitted(response: ResubmitResponse) {
    setFixing(null)
    setApplied(response.applied)
    focusApplied()
    setFollowed({ id: response.publication.id, initial: response.publication })
    props.onResubmitted?.(response)
  }

  if (publication.status === 'error' && !latest) {
    return <FormAlert message={t(errorMessageKey(publication.error))} />
  }
  if (!latest) return <Spinner label={t('publishing.panel.following')} className="text-brand-700" />
  const marketplace = t(`settings.integrations.${latest.marketplace}.name`)
  return (
    <div className="space-y-3" data-testid="publication-status">
      {applied ? (
        <section
          aria-labelledby={`${id}-applied`}
          className="space-y-1 rounded-xl bg-sky-50 p-3"
          data-testid="resubmit-applied"
        >
          <h4
            id={`${id}-applied`}
            ref={appliedRef}
            tabIndex={-1}
            className="text-sm font-semibold text-slate-900 focus:outline-none"
          >
            {t('publishing.resubmit.appliedTitle', { count: applied.length })}
          </h4>
          <ul className="space-y-1 text-sm text-slate-800">
            {applied.map((entry) => (
              <li key={entry.itemId}>
                {entry.fixes.length === 0
                  ? t('publishing.resubmit.appliedNone', { barcode: entry.barcode })
                  : t('publishing.resubmit.appliedEntry', {
                      barcode: entry.barcode,
                      fixes: entry.fixes
                        .map((fix) => (isPublishFix(fix) ? t(publishFixMessageKeys(fix).label) : fix))
                        .join(', '),
                    })}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p role="status" className="text-sm font-semibold text-slate-900">
        {applied
          ? isFinal
            ? t('publishing.resubmit.finished', { marketplace })
            : t('publishing.resubmit.underWay', { marketplace })
          : isFinal
            ? t('publishing.panel.finished', { marketplace })
            : t('publishing.panel.underWay', { marketplace })}
      </p>
      <StatusCounts counts={latest.counts} />
      {latest.errorCode ? (
        <FormAlert
          message={t(isErrorCode(latest.errorCode) ? `errors.${latest.errorCode}` : 'errors.INTERNAL')}
        />
      ) : null}
      <PublicationItems publication={latest} onFix={(items, isAll) => setFixing({ items, isAll })} />
      {isFinal && props.onAgain ? (
        <button type="button" className={buttonClasses('secondary')} onClick={props.onAgain}>
          {t('publishing.panel.publishAgain')}
        </button>
      ) : null}
      {fixing ? (
        <ResubmitDialog
          publication={latest}
          items={fixing.items}
          isAll={fixing.isAll}
          category={props.category ?? null}
          onClose={() => setFixing(null)}
          onResubmitted={handleResubmitted}
        />
      ) : null}
    </div>
  )
}
