import { type CatalogueField, type ColumnMapping, catalogueFields } from '#shared/catalogue/columns.ts'
import type { RowProblem } from '#shared/catalogue/row-problems.ts'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { countText } from '../format.ts'

/**
 * The preview under the mapping: how many products are ready and how many rows have problems,
 * the first rows as the mapping reads them (a table; stacked cards on a phone), and every
 * problem with its line and reason.
 */
export function ImportPreview(props: { view: CatalogueImportView; mapping: ColumnMapping }) {
  const { t } = useI18n()
  const { view, mapping } = props
  const fields = catalogueFields.filter((field) => mapping[field] !== undefined)
  const problemRows = view.batch.rowCount - view.batch.productCount
  const cell = (cells: string[], field: CatalogueField) => {
    const column = mapping[field]
    return column === undefined ? '' : (cells[column] ?? '')
  }
  const headerOf = (field: CatalogueField) => {
    const column = mapping[field]
    return column === undefined ? '' : (view.headers[column] ?? '')
  }

  return (
    <section aria-labelledby="catalogue-preview-title" className="space-y-5">
      <div>
        <h3 id="catalogue-preview-title" className="text-lg font-semibold text-slate-900">
          {t('catalogue.preview.title')}
        </h3>
        <p
          role="status"
          aria-live="polite"
          className="mt-2 flex flex-wrap gap-2 text-sm"
          data-testid="preview-counts"
        >
          <span className="rounded-full bg-emerald-50 px-3 py-1 font-semibold text-emerald-900 ring-1 ring-emerald-200 ring-inset">
            {countText(
              t,
              view.batch.productCount,
              'catalogue.preview.readyOne',
              'catalogue.preview.readyOther',
            )}
          </span>
          <span
            className={`rounded-full px-3 py-1 font-semibold ring-1 ring-inset ${
              problemRows > 0
                ? 'bg-red-50 text-red-900 ring-red-200'
                : 'bg-slate-100 text-slate-700 ring-slate-300'
            }`}
          >
            {countText(t, problemRows, 'catalogue.preview.badOne', 'catalogue.preview.badOther')}
          </span>
          {view.zipPhotoCount !== null ? (
            <span className="rounded-full bg-slate-100 px-3 py-1 text-slate-700 ring-1 ring-slate-300 ring-inset">
              {countText(
                t,
                view.zipPhotoCount,
                'catalogue.preview.zipPhotosOne',
                'catalogue.preview.zipPhotosOther',
              )}
            </span>
          ) : null}
        </p>
      </div>

      {view.sampleRows.length > 0 && fields.length > 0 ? (
        <div>
          <p className="text-sm text-slate-600" id="catalogue-sample-caption">
            {t('catalogue.preview.sampleCaption', { count: view.sampleRows.length })}
          </p>
          <section
            aria-labelledby="catalogue-sample-caption"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the card scrolls; a keyboard user scrolls it once it has the focus
            tabIndex={0}
            className="mt-2 hidden overflow-x-auto rounded-xl border border-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 md:block"
          >
            <table
              className="min-w-full divide-y divide-slate-200 text-left text-sm"
              aria-describedby="catalogue-sample-caption"
            >
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className="px-3 py-2 align-bottom font-semibold text-slate-900">
                    {t('catalogue.preview.line')}
                  </th>
                  {fields.map((field) => (
                    <th
                      key={field}
                      scope="col"
                      className="px-3 py-2 align-bottom font-semibold text-slate-900"
                    >
                      {t(`catalogue.fields.${field}`)}
                      <span className="block text-xs font-normal text-slate-500">{headerOf(field)}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 bg-white">
                {view.sampleRows.map((row) => (
                  <tr key={row.line}>
                    <td className="px-3 py-2 text-slate-500 tabular-nums">{row.line}</td>
                    {fields.map((field) => (
                      <td
                        key={field}
                        className="max-w-56 truncate px-3 py-2 text-slate-800"
                        title={cell(row.cells, field)}
                      >
                        {cell(row.cells, field)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <ul className="mt-2 space-y-3 md:hidden" aria-describedby="catalogue-sample-caption">
            {view.sampleRows.map((row) => (
              <li key={row.line} className="rounded-xl border border-slate-200 bg-white p-3 text-sm">
                <p className="font-semibold text-slate-900">
                  {t('catalogue.preview.lineN', { line: row.line })}
                </p>
                <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
                  {fields.map((field) => (
                    <div key={field} className="contents">
                      <dt className="text-slate-600">{t(`catalogue.fields.${field}`)}</dt>
                      <dd className="truncate text-slate-900">{cell(row.cells, field) || '—'}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {view.problems.length > 0 ? (
        <div>
          <h4 id="catalogue-problems-title" className="font-semibold text-slate-900">
            {t('catalogue.preview.problemsTitle')}
          </h4>
          <p className="text-sm text-slate-600">{t('catalogue.preview.problemsHint')}</p>
          <ul
            aria-labelledby="catalogue-problems-title"
            className="mt-2 max-h-96 divide-y divide-red-100 overflow-y-auto rounded-xl border border-red-200 bg-red-50/50"
            data-testid="problem-list"
          >
            {view.problems.map((problem, index) => (
              // A row may have several problems, and one problem code several cells.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
              <ProblemItem key={index} problem={problem} />
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}

function ProblemItem(props: { problem: RowProblem }) {
  const { t } = useI18n()
  const { problem } = props
  return (
    <li className="px-3 py-2 text-sm text-slate-800" data-testid="problem">
      <span className="font-semibold text-red-900">
        {t('catalogue.preview.lineN', { line: problem.line })}
      </span>
      {problem.field ? (
        <span className="text-slate-600"> · {t(`catalogue.fields.${problem.field}`)}</span>
      ) : null}
      {': '}
      {t(`catalogue.rowProblems.${problem.code}`)}
      {problem.otherLines && problem.otherLines.length > 0 ? (
        <> {t('catalogue.preview.otherLines', { lines: problem.otherLines.join(', ') })}</>
      ) : null}
      {problem.value ? (
        <span className="mt-0.5 block truncate font-mono text-xs text-slate-600" title={problem.value}>
          {problem.value}
        </span>
      ) : null}
    </li>
  )
}
