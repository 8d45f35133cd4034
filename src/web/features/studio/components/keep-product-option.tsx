import { Switch } from '#web/components/ui/switch.tsx'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * "Keep my product exactly" for a product image edit: a switch with its one-line help text,
 * read together by screen readers (the label names the switch, the help describes it).
 */
export function KeepProductOption(props: {
  checked: boolean
  onChange: (checked: boolean) => void
  disabled?: boolean
}) {
  const { t } = useI18n()
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="keep-product">
      <Switch
        label={t('studio.keepProduct.label')}
        description={t('studio.keepProduct.hint')}
        checked={props.checked}
        onChange={props.onChange}
        onText={t('studio.keepProduct.on')}
        offText={t('studio.keepProduct.off')}
        disabled={props.disabled}
      />
    </div>
  )
}
