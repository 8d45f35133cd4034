import { useId } from 'react'
import type { ViewChoice } from '#shared/scenes.ts'
import { viewChoices } from '#shared/scenes.ts'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * The camera angle of a product scene (decision 42), beside the scene chips: a small segmented
 * control of native radios (arrows move between them, Tab leaves, screen readers read the
 * legend and the hint), starting at "match my photo".
 */
export function SceneViewChoice(props: {
  value: ViewChoice
  onChange: (view: ViewChoice) => void
  disabled?: boolean
}) {
  const { t } = useI18n()
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <fieldset disabled={props.disabled} aria-describedby={hintId} data-testid="scene-view">
      <legend className="text-sm font-semibold text-slate-900">{t('studio.view.legend')}</legend>
      <div className="mt-2 inline-flex rounded-lg border border-slate-300 bg-white p-0.5">
        {viewChoices.map((view) => {
          const inputId = `${id}-${view}`
          const isChecked = view === props.value
          return (
            <label
              key={view}
              htmlFor={inputId}
              className={`cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700 ${
                isChecked ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100'
              }`}
            >
              <input
                id={inputId}
                type="radio"
                name={`scene-view-${id}`}
                value={view}
                checked={isChecked}
                onChange={() => props.onChange(view)}
                className="sr-only"
              />
              {t(`studio.view.${view}`)}
            </label>
          )
        })}
      </div>
      <p id={hintId} className="mt-1 text-xs text-slate-600">
        {t('studio.view.hint')}
      </p>
    </fieldset>
  )
}
