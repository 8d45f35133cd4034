import type { ReactNode } from 'react'
import type { AspectRatio } from '#shared/scenes.ts'
import { ChoiceGroup } from '#web/components/ui/choice-group.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { ratioChoices } from '#web/components/ui/ratio-choices.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import type { FormElementProps } from '#web/lib/use-form.ts'

/** Create's and Fashion's frame: the header, the form card, and the result beside it (below on a phone). */
export function StudioLayout(props: {
  title: string
  subtitle: string
  /** The page's form (useForm's formProps). */
  form: FormElementProps
  children: ReactNode
  result: ReactNode
}) {
  return (
    <div className="bg-slate-50">
      <PageHeader title={props.title} subtitle={props.subtitle} />
      <Container className="py-8 sm:py-10">
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
          <form
            {...props.form}
            className="space-y-6 rounded-3xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
            aria-label={props.title}
          >
            {props.children}
          </form>
          {props.result}
        </div>
      </Container>
    </div>
  )
}

/** The output ratio; the form starts it from the seller's marketplace (usePreferredRatio). */
export function RatioChoice(props: { value: AspectRatio; onChange: (ratio: AspectRatio) => void }) {
  const { t } = useI18n()
  return (
    <ChoiceGroup<AspectRatio>
      legend={t('studio.ratio.legend')}
      name="ratio"
      value={props.value}
      onChange={props.onChange}
      choices={ratioChoices(t)}
    />
  )
}
