import { useId, useState } from 'react'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type { MarketplaceCategory } from '#shared/contracts/publishing.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { FormAlert } from '#web/components/ui/form-alert.tsx'
import { inputClasses } from '#web/components/ui/form-field.tsx'
import { Spinner } from '#web/components/ui/spinner.tsx'
import { errorMessageKey } from '#web/lib/error-message.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useForm } from '#web/lib/use-form.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { searchCategories } from '../api/publishing-api.ts'

/** A search in the marketplace's categories; a category that takes products is chosen from the results. */
export function CategoryFinder(props: {
  marketplace: IntegrationMarketplace
  onChoose: (category: MarketplaceCategory) => void
}) {
  const { t } = useI18n()
  const id = useId()
  // The search asked last; the results follow it, not the query being typed.
  const [asked, setAsked] = useState('')
  const form = useForm({
    initialValues: { query: '' },
    // A search is asked again and again.
    repeatable: true,
    action: async (values) => setAsked(values.query.trim()),
  })
  const query = form.values.query
  const results = useResource((signal) => searchCategories(props.marketplace, asked, signal), {
    key: `${props.marketplace}:${asked}`,
    isEnabled: asked !== '',
  })
  return (
    <div className="space-y-3">
      <form {...form.formProps} className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-query`} className="block text-sm font-medium text-slate-900">
            {t('publishing.panel.categoryLabel')}
          </label>
          <input
            id={`${id}-query`}
            type="search"
            className={`${inputClasses} mt-1`}
            {...form.input('query')}
            placeholder={t('publishing.panel.categoryPlaceholder')}
            data-testid="publish-category-query"
          />
        </div>
        <button type="submit" className={buttonClasses('secondary')} disabled={query.trim() === ''}>
          {t('publishing.panel.search')}
        </button>
      </form>
      {asked === '' ? null : results.status === 'loading' ? (
        <Spinner label={t('publishing.panel.searching')} className="text-brand-700" />
      ) : results.status === 'error' ? (
        <FormAlert message={t(errorMessageKey(results.error))} />
      ) : results.data.categories.length === 0 ? (
        <p role="status" className="text-sm text-slate-700">
          {t('publishing.panel.noCategories', { query: asked })}
        </p>
      ) : (
        <ul
          aria-label={t('publishing.panel.categoryResults')}
          className="divide-y divide-slate-200 rounded-xl border border-slate-200"
        >
          {results.data.categories.map((category) => (
            <li key={category.id} className="flex items-center justify-between gap-3 p-3">
              <span className="text-sm text-slate-800">{category.path.join(' › ')}</span>
              {category.isLeaf ? (
                <button
                  type="button"
                  className={buttonClasses('secondary')}
                  onClick={() => props.onChoose(category)}
                  aria-label={t('publishing.panel.chooseCategoryNamed', { category: category.name })}
                >
                  {t('publishing.panel.chooseCategory')}
                </button>
              ) : (
                <span className="text-xs text-slate-500">{t('publishing.panel.notLeaf')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The category chosen, by its path, with the way back to the finder. */
export function ChosenCategory(props: {
  category: MarketplaceCategory
  onChange: () => void
  /** For a form or section the path labels. */
  id?: string
  testId?: string
}) {
  const { t } = useI18n()
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <p id={props.id} className="text-sm text-slate-800" data-testid={props.testId}>
        {t('publishing.panel.categoryChosen', { path: props.category.path.join(' › ') })}
      </p>
      <button
        type="button"
        onClick={props.onChange}
        className="text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
      >
        {t('publishing.panel.changeCategory')}
      </button>
    </div>
  )
}
