import { TextLink } from '#web/components/ui/text-link.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'

/** Why a plan's switches are disabled, with the way to choose a plan. */
export function NeedsPlanNotice(props: { id: string }) {
  const { t } = useI18n()
  return (
    <div className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
      <p id={props.id}>{t('settings.needsPlan.body')}</p>
      <TextLink to={href('pricing')} tone="notice" className="mt-2 inline-block">
        {t('settings.needsPlan.link')}
      </TextLink>
    </div>
  )
}
