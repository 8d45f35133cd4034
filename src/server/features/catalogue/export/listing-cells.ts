/**
 * Cells of the exported listing. Spreadsheet programs run a cell that starts with `=`, `+`, `-`
 * or `@` as a formula (and `=HYPERLINK(…)` can send data away when clicked), also after leading
 * spaces, a tab or a carriage return; the list's cells and the model's SEO copy are text we did
 * not write, so every such cell gets a leading apostrophe. The full-width forms are included
 * because some spreadsheet programs fold them to the ASCII ones.
 */
const formulaStart = /^[\s\u3000]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/u

/** The cell's text, made inert for a spreadsheet. */
export function neutraliseCell(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text
}

/** Separator of the CSV: what Turkish Excel expects, since `,` is its decimal separator. */
export const csvSeparator = ';'

/** One CSV field, quoted as RFC 4180 says when it holds the separator, a quote or a line break. */
export function csvField(text: string): string {
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV record with its CRLF, every cell neutralised first. */
export function csvRecord(cells: readonly string[]): string {
  return `${cells.map((cell) => csvField(neutraliseCell(cell))).join(csvSeparator)}\r\n`
}
